// Chats and messages: what a bot sends (text, keyboards, replies), edits, deletes, and its
// answers to button presses, with Telegram's checks on each.
import type { InlineKeyboardButton, InlineKeyboardMarkup, Message, MessageEntity, ReplyKeyboardMarkup } from 'grammy/types';
import { badRequest, type Params } from './request-body';
import {
  botUser,
  CALLBACK_DATA_LIMIT_BYTES,
  type CallbackAnswer,
  CAPTION_LIMIT,
  clone,
  DELETE_WINDOW_S,
  ERRORS,
  type FakeBot,
  type FakeChat,
  isHttpUrl,
  MESSAGE_TEXT_LIMIT,
  now,
  type StoredMessage,
} from './model';
import type { FakeState } from './state';
import { HtmlParseError, parseTelegramHtml, trimText } from './telegram-html';

const INLINE_BUTTON_KINDS = [
  'url',
  'callback_data',
  'web_app',
  'login_url',
  'switch_inline_query',
  'switch_inline_query_current_chat',
  'switch_inline_query_chosen_chat',
  'copy_text',
  'callback_game',
  'pay',
] as const;

function validateInlineKeyboard(markup: InlineKeyboardMarkup): InlineKeyboardMarkup {
  const rows = (markup as { inline_keyboard: unknown }).inline_keyboard;
  if (!Array.isArray(rows) || rows.some((row) => !Array.isArray(row))) {
    throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
  }
  for (const row of rows as unknown[][]) {
    for (const raw of row) {
      const button = raw as Record<string, unknown>;
      if (typeof button !== 'object' || button === null || typeof button.text !== 'string') {
        throw badRequest(`can't parse inline keyboard button: Field "text" must be of type String`);
      }
      const kinds = INLINE_BUTTON_KINDS.filter((kind) => button[kind] !== undefined);
      if (kinds.length === 0) throw badRequest(`can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard`);
      if (kinds.length > 1) throw badRequest(`can't parse inline keyboard button: only one of the optional fields must be used`);
      if (button.text === '') throw badRequest('BUTTON_TEXT_INVALID');
      if (kinds[0] === 'callback_data') {
        const data = String(button.callback_data);
        const bytes = Buffer.byteLength(data, 'utf8');
        if (bytes < 1 || bytes > CALLBACK_DATA_LIMIT_BYTES) throw badRequest('BUTTON_DATA_INVALID');
      }
      if (kinds[0] === 'url') {
        const url = String(button.url);
        if (!isHttpUrl(url) && !/^tg:\/\//.test(url)) {
          throw badRequest(`inline keyboard button URL '${url}' is invalid: Unsupported URL protocol`);
        }
      }
      if (kinds[0] === 'web_app') {
        const url = String((button.web_app as { url?: unknown } | null)?.url ?? '');
        // Telegram wants https here; the fake also takes http, as Telegram's test environment does,
        // so a Mini App on a local address can be played with.
        if (!isHttpUrl(url)) throw badRequest(`inline keyboard button Web App URL '${url}' is invalid: Only HTTPS links are allowed`);
      }
    }
  }
  return { inline_keyboard: rows as InlineKeyboardButton[][] };
}

/** The Bot API methods on a chat's messages. */
export class ChatMessages {
  constructor(private readonly state: FakeState) {}

  chatOf(bot: FakeBot, p: Params): FakeChat {
    const raw = p.string('chat_id');
    if (raw === undefined || raw === '') throw badRequest('chat_id is empty');
    const chat = /^-?\d+$/.test(raw) ? bot.chats.get(Number(raw)) : undefined;
    if (!chat) throw badRequest('chat not found');
    return chat;
  }

  writableChat(bot: FakeBot, p: Params): FakeChat {
    const chat = this.chatOf(bot, p);
    if (chat.blocked) throw ERRORS.blocked();
    return chat;
  }

  /** Text or caption with its entities, from parse_mode HTML or explicit entities. */
  formatted(p: Params, textKey: string, entitiesKey: string): { text: string; entities: MessageEntity[] } {
    const raw = p.string(textKey) ?? '';
    const mode = p.string('parse_mode');
    if (mode) {
      if (mode.toLowerCase() !== 'html') {
        if (/^markdown(v2)?$/i.test(mode)) {
          throw badRequest(`can't parse entities: the fake Bot API understands parse_mode HTML only, not ${mode}`);
        }
        throw badRequest('unsupported parse_mode');
      }
      try {
        return parseTelegramHtml(raw);
      } catch (error) {
        if (error instanceof HtmlParseError) throw badRequest(`can't parse entities: ${error.message}`);
        throw error;
      }
    }
    return trimText(raw, p.json<MessageEntity[]>(entitiesKey) ?? []);
  }

  /** Applies reply_markup: an inline keyboard goes on the message, a reply keyboard on the chat. */
  replyMarkup(chat: FakeChat, p: Params): InlineKeyboardMarkup | undefined {
    const markup = p.json<Record<string, unknown>>('reply_markup', 'reply keyboard markup');
    if (!markup) return undefined;
    if (typeof markup !== 'object') throw badRequest("can't parse reply keyboard markup JSON object");
    if ('inline_keyboard' in markup) return validateInlineKeyboard(markup as unknown as InlineKeyboardMarkup);
    if ('keyboard' in markup) {
      if (!Array.isArray(markup.keyboard)) throw badRequest('field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays');
      const rows = markup.keyboard as unknown[];
      if (rows.length === 0 || !rows.every((row) => Array.isArray(row) && row.length > 0)) throw badRequest('keyboard must be non-empty');
      for (const row of rows as unknown[][]) {
        for (const button of row) {
          const text = typeof button === 'string' ? button : (button as { text?: unknown } | null)?.text;
          if (typeof text !== 'string' || text === '') throw badRequest("can't parse reply keyboard markup JSON object");
        }
      }
      chat.replyKeyboard = markup as unknown as ReplyKeyboardMarkup;
      chat.replyKeyboardHidden = false;
    } else if (markup.remove_keyboard) {
      chat.replyKeyboard = undefined;
      chat.replyKeyboardHidden = false;
    } else if (!markup.force_reply) {
      throw badRequest("can't parse reply keyboard markup JSON object");
    }
    return undefined;
  }

  replyTo(chat: FakeChat, p: Params): Message | undefined {
    const parameters = p.json<{ message_id?: number; allow_sending_without_reply?: boolean }>('reply_parameters');
    const id = parameters?.message_id ?? p.integer('reply_to_message_id');
    if (id === undefined) return undefined;
    const stored = chat.messages.get(id);
    if (!stored || stored.deleted) {
      if (parameters?.allow_sending_without_reply || p.boolean('allow_sending_without_reply')) return undefined;
      throw badRequest('message to be replied not found');
    }
    const replied = clone(stored.message) as Message & { reply_to_message?: unknown };
    delete replied.reply_to_message;
    return replied;
  }

  storeBotMessage(bot: FakeBot, chat: FakeChat, fields: Record<string, unknown>): Message {
    const message = {
      message_id: chat.nextMessageId++,
      from: botUser(bot),
      chat: chat.chat,
      date: now(),
      ...fields,
    } as unknown as Message;
    chat.messages.set(message.message_id, { message, fromBot: true, deleted: false, sentSeq: ++this.state.seq, editedSeq: 0 });
    this.state.changed();
    return message;
  }

  sendMessage(bot: FakeBot, p: Params): Message {
    const chat = this.writableChat(bot, p);
    const { text, entities } = this.formatted(p, 'text', 'entities');
    if (text === '') throw badRequest('message text is empty');
    if (text.length > MESSAGE_TEXT_LIMIT) throw badRequest('message is too long');
    const replyTo = this.replyTo(chat, p);
    const inline = this.replyMarkup(chat, p);
    return this.storeBotMessage(bot, chat, {
      ...(replyTo ? { reply_to_message: replyTo } : {}),
      text,
      ...(entities.length ? { entities } : {}),
      ...(inline ? { reply_markup: inline } : {}),
    });
  }

  /** A message the bot may edit: exists, not deleted, sent by the bot. */
  editable(bot: FakeBot, p: Params): { chat: FakeChat; stored: StoredMessage } {
    if (p.has('inline_message_id')) throw badRequest('MESSAGE_ID_INVALID');
    const chat = this.chatOf(bot, p);
    const id = p.integer('message_id');
    if (id === undefined) throw badRequest('message identifier is not specified');
    const stored = chat.messages.get(id);
    if (!stored || stored.deleted) throw badRequest('message to edit not found');
    if (!stored.fromBot) throw badRequest("message can't be edited");
    return { chat, stored };
  }

  commitEdit(stored: StoredMessage, next: Record<string, unknown>): Message {
    const current = stored.message as unknown as Record<string, unknown>;
    const unchanged = Object.entries(next).every(([key, value]) => JSON.stringify(current[key]) === JSON.stringify(value));
    if (unchanged) {
      throw badRequest(
        'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    }
    for (const [key, value] of Object.entries(next)) {
      if (value === undefined) delete current[key];
      else current[key] = value;
    }
    current.edit_date = now();
    stored.editedSeq = ++this.state.seq;
    this.state.changed();
    return stored.message;
  }

  editMessageText(bot: FakeBot, p: Params): Message {
    const { chat, stored } = this.editable(bot, p);
    if (stored.message.text === undefined) throw badRequest('there is no text in the message to edit');
    const { text, entities } = this.formatted(p, 'text', 'entities');
    if (text === '') throw badRequest('message text is empty');
    if (text.length > MESSAGE_TEXT_LIMIT) throw badRequest('MESSAGE_TOO_LONG');
    // Without reply_markup, an edit drops the message's inline keyboard, as in Telegram.
    return this.commitEdit(stored, { text, entities: entities.length ? entities : undefined, reply_markup: this.replyMarkup(chat, p) });
  }

  editMessageCaption(bot: FakeBot, p: Params): Message {
    const { chat, stored } = this.editable(bot, p);
    if (stored.message.photo === undefined && stored.message.video === undefined) {
      throw badRequest('there is no caption in the message to edit');
    }
    const { text, entities } = this.formatted(p, 'caption', 'caption_entities');
    if (text.length > CAPTION_LIMIT) throw badRequest('message caption is too long');
    return this.commitEdit(stored, {
      caption: text || undefined,
      caption_entities: entities.length ? entities : undefined,
      reply_markup: this.replyMarkup(chat, p),
    });
  }

  editMessageReplyMarkup(bot: FakeBot, p: Params): Message {
    const { chat, stored } = this.editable(bot, p);
    return this.commitEdit(stored, { reply_markup: this.replyMarkup(chat, p) });
  }

  deleteMessage(bot: FakeBot, p: Params): true {
    const chat = this.chatOf(bot, p);
    const id = p.integer('message_id');
    const stored = id === undefined ? undefined : chat.messages.get(id);
    if (!stored || stored.deleted) throw badRequest('message to delete not found');
    if (now() - stored.message.date > DELETE_WINDOW_S) throw badRequest("message can't be deleted for everyone");
    stored.deleted = true;
    stored.editedSeq = ++this.state.seq;
    this.state.changed();
    return true;
  }

  answerCallbackQuery(bot: FakeBot, p: Params): true {
    const id = p.string('callback_query_id') ?? '';
    const record = bot.callbacks.get(id);
    if (!record || record.answered) {
      throw badRequest('query is too old and response timeout expired or query ID is invalid');
    }
    const text = p.string('text');
    if (text !== undefined && text.length > 200) throw badRequest('MESSAGE_TOO_LONG');
    record.answered = true;
    const answer: CallbackAnswer = {
      callback_query_id: id,
      ...(text !== undefined ? { text } : {}),
      ...(p.boolean('show_alert') !== undefined ? { show_alert: p.boolean('show_alert') } : {}),
      ...(p.string('url') !== undefined ? { url: p.string('url') } : {}),
      ...(p.integer('cache_time') !== undefined ? { cache_time: p.integer('cache_time') } : {}),
    };
    bot.chats.get(record.chatId)?.callbackAnswers.push(answer);
    this.state.changed();
    return true;
  }

  /** Makes every message of the bot look `seconds` older (for the 48-hour delete rule). */
  ageMessages(token: string, seconds: number): void {
    for (const chat of this.state.botFor(token).chats.values()) for (const stored of chat.messages.values()) stored.message.date -= seconds;
  }
}
