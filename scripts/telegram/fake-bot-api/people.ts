// The person's side of a chat, played by tests and the web page: writing to the bot, pressing
// its buttons, blocking it. Each becomes an update for the bot.
import { randomInt } from 'node:crypto';
import type { CallbackQuery, Chat, ChatMemberUpdated, InlineKeyboardMarkup, Message, Update, User } from 'grammy/types';
import { botUser, clone, ControlError, type FakeBot, type FakeChat, now, type Subscriber } from './model';
import type { FakeState } from './state';
import { commandEntities } from './telegram-html';
import type { UpdateQueues } from './updates';

/** What people do in their chats with the bots. */
export class People {
  constructor(
    private readonly state: FakeState,
    private readonly updates: UpdateQueues,
  ) {}

  ensureChat(bot: FakeBot, from: Subscriber): FakeChat {
    if (!from || !Number.isSafeInteger(from.id) || from.id <= 0 || typeof from.first_name !== 'string' || from.first_name === '') {
      throw new ControlError(400, 'from must be a person: { id: positive integer, first_name, last_name?, username?, language_code? }');
    }
    const user: Subscriber = {
      id: from.id,
      first_name: from.first_name,
      ...(from.last_name ? { last_name: from.last_name } : {}),
      ...(from.username ? { username: from.username } : {}),
      ...(from.language_code ? { language_code: from.language_code } : {}),
    };
    const privateChat: Chat.PrivateChat = {
      id: user.id,
      type: 'private',
      first_name: user.first_name,
      ...(user.last_name ? { last_name: user.last_name } : {}),
      ...(user.username ? { username: user.username } : {}),
    };
    let chat = bot.chats.get(user.id);
    if (!chat) {
      chat = {
        id: user.id,
        user,
        chat: privateChat,
        messages: new Map(),
        nextMessageId: 1,
        blocked: false,
        lastUserActionSeq: 0,
        chatInstance: String(randomInt(1, 2 ** 47)) + String(randomInt(1, 2 ** 20)),
        callbackAnswers: [],
      };
      bot.chats.set(user.id, chat);
    } else {
      chat.user = user;
      chat.chat = privateChat;
    }
    return chat;
  }

  asUser(user: Subscriber): User {
    return { is_bot: false, ...user };
  }

  /** A person writes to the bot (text, a /command, or "/start <payload>"); returns the update. */
  sendUserMessage(token: string, { from, text }: { from: Subscriber; text: string }): Update {
    const bot = this.state.botFor(token);
    if (typeof text !== 'string' || text.trim() === '') throw new ControlError(400, 'text must be a non-empty string');
    const chat = this.ensureChat(bot, from);
    // Writing to a bot you blocked unblocks it first (Telegram's "Restart" button).
    if (chat.blocked) this.setBlocked(token, from.id, false);
    const entities = commandEntities(text);
    const message = {
      message_id: chat.nextMessageId++,
      from: this.asUser(chat.user),
      chat: chat.chat,
      date: now(),
      text,
      ...(entities.length ? { entities } : {}),
    } as Message;
    chat.lastUserActionSeq = ++this.state.seq;
    chat.messages.set(message.message_id, { message, fromBot: false, deleted: false, sentSeq: chat.lastUserActionSeq, editedSeq: 0 });
    return this.updates.pushUpdate(bot, { message: clone(message) } as Omit<Update, 'update_id'>);
  }

  /**
   * A person taps a button of the reply keyboard the bot showed in their chat: its text is sent
   * as their message, or, a request_contact button, their own contact (Telegram's only way to
   * share one's number with a bot on a tap; `phone_number` is theirs, made up from their id when
   * omitted). A one-time keyboard folds away after the tap (still there, hidden, as in Telegram).
   */
  pressReplyButton(token: string, { from, text, phone_number }: { from: Subscriber; text: string; phone_number?: string }): Update {
    const bot = this.state.botFor(token);
    const chat = bot.chats.get(from?.id);
    const keyboard = chat?.replyKeyboard;
    if (!chat || !keyboard || chat.replyKeyboardHidden) throw new ControlError(404, `No reply keyboard is shown in the chat with ${from?.id}`);
    const button = keyboard.keyboard.flat().find((b) => (typeof b === 'string' ? b : b.text) === text);
    if (button === undefined) throw new ControlError(400, `The reply keyboard has no button "${text}"`);
    this.ensureChat(bot, from);
    if (keyboard.one_time_keyboard) chat.replyKeyboardHidden = true;
    const base = { message_id: chat.nextMessageId++, from: this.asUser(chat.user), chat: chat.chat, date: now() };
    const message = (
      typeof button !== 'string' && 'request_contact' in button && button.request_contact
        ? {
            ...base,
            contact: {
              phone_number: phone_number ?? `+999${String(chat.user.id).slice(-9).padStart(9, '0')}`,
              first_name: chat.user.first_name,
              ...(chat.user.last_name ? { last_name: chat.user.last_name } : {}),
              user_id: chat.user.id,
            },
          }
        : { ...base, text }
    ) as Message;
    chat.lastUserActionSeq = ++this.state.seq;
    chat.messages.set(message.message_id, { message, fromBot: false, deleted: false, sentSeq: chat.lastUserActionSeq, editedSeq: 0 });
    return this.updates.pushUpdate(bot, { message: clone(message) } as Omit<Update, 'update_id'>);
  }

  /** A person presses an inline callback button under one of the bot's messages. */
  pressButton(token: string, { from, message_id, callback_data }: { from: Subscriber; message_id: number; callback_data: string }): Update {
    const bot = this.state.botFor(token);
    const chat = bot.chats.get(from?.id);
    const stored = chat?.messages.get(message_id);
    if (!chat || !stored || stored.deleted || !stored.fromBot) {
      throw new ControlError(404, `No message ${message_id} from the bot in the chat with ${from?.id}`);
    }
    const markup = (stored.message as { reply_markup?: InlineKeyboardMarkup }).reply_markup;
    const hasButton = markup?.inline_keyboard.some((row) =>
      row.some((button) => 'callback_data' in button && button.callback_data === callback_data),
    );
    if (!hasButton) throw new ControlError(400, `Message ${message_id} has no button with callback_data "${callback_data}"`);
    this.ensureChat(bot, from);
    const id = `${bot.me.id}${randomInt(1_000_000, 9_999_999)}${randomInt(100, 999)}`;
    bot.callbacks.set(id, { chatId: chat.id, answered: false });
    chat.lastUserActionSeq = ++this.state.seq;
    const callbackQuery: CallbackQuery = {
      id,
      from: this.asUser(chat.user),
      message: clone(stored.message) as CallbackQuery['message'],
      chat_instance: chat.chatInstance,
      data: callback_data,
    };
    return this.updates.pushUpdate(bot, { callback_query: callbackQuery } as Omit<Update, 'update_id'>);
  }

  /** The person blocks (or unblocks) the bot: the bot gets my_chat_member, sends get 403. */
  setBlocked(token: string, userId: number, blocked: boolean): Update | undefined {
    const bot = this.state.botFor(token);
    const chat = bot.chats.get(userId);
    if (!chat) throw new ControlError(404, `No chat with ${userId}: the person has to write to the bot first`);
    if (chat.blocked === blocked) return undefined;
    chat.blocked = blocked;
    const me = botUser(bot);
    const member: ChatMemberUpdated = {
      chat: chat.chat,
      from: this.asUser(chat.user),
      date: now(),
      old_chat_member: blocked ? { status: 'member', user: me } : { status: 'kicked', user: me, until_date: 0 },
      new_chat_member: blocked ? { status: 'kicked', user: me, until_date: 0 } : { status: 'member', user: me },
    } as ChatMemberUpdated;
    this.state.changed();
    return this.updates.pushUpdate(bot, { my_chat_member: member } as Omit<Update, 'update_id'>);
  }
}
