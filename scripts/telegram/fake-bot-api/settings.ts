// A bot's settings: descriptions, the menu button (per chat or default) and its commands per
// scope and language.
import type { BotCommand, BotCommandScope, MenuButton } from 'grammy/types';
import { badRequest, type Params } from './request-body';
import { clone, type FakeBot, isHttpUrl } from './model';
import type { ChatMessages } from './messages';
import type { FakeState } from './state';

export function commandsKey(scope: BotCommandScope | undefined, language: string | undefined): string {
  const type = scope?.type ?? 'default';
  const chat = scope && 'chat_id' in scope ? `:${scope.chat_id}` : '';
  return `${type}${chat}|${language ?? ''}`;
}

function validateMenuButton(button: MenuButton | undefined): MenuButton | undefined {
  if (!button || button.type === 'default') return undefined;
  if (button.type === 'commands') return { type: 'commands' };
  if (button.type === 'web_app') {
    if (typeof button.text !== 'string' || button.text === '') throw badRequest('menu button text must be non-empty');
    if (!button.web_app || typeof button.web_app.url !== 'string' || !isHttpUrl(button.web_app.url)) {
      throw badRequest('BUTTON_URL_INVALID');
    }
    return { type: 'web_app', text: button.text, web_app: { url: button.web_app.url } };
  }
  throw badRequest("can't parse menu button: unsupported menu button type");
}

/** The Bot API methods that set up a bot. */
export class BotSettings {
  constructor(
    private readonly state: FakeState,
    private readonly messages: ChatMessages,
  ) {}

  setText(store: Map<string, string>, p: Params, key: string, limit: number): true {
    const value = p.string(key) ?? '';
    if (value.length > limit) throw badRequest(`${key.replace('_', ' ')} is too long`);
    const language = p.string('language_code') ?? '';
    if (language !== '' && !/^[a-z]{2}$/.test(language)) throw badRequest('invalid language code specified');
    if (value === '') store.delete(language);
    else store.set(language, value);
    this.state.changed();
    return true;
  }

  setChatMenuButton(bot: FakeBot, p: Params): true {
    const button = validateMenuButton(p.json<MenuButton>('menu_button', 'menu button'));
    if (p.has('chat_id')) {
      this.messages.chatOf(bot, p).menuButton = button;
    } else {
      bot.defaultMenuButton = button;
    }
    this.state.changed();
    return true;
  }

  getChatMenuButton(bot: FakeBot, p: Params): MenuButton {
    const chat = p.has('chat_id') ? this.messages.chatOf(bot, p) : undefined;
    return clone(chat?.menuButton ?? bot.defaultMenuButton ?? { type: 'commands' });
  }

  setMyCommands(bot: FakeBot, p: Params): true {
    const commands = p.json<BotCommand[]>('commands');
    if (!Array.isArray(commands)) throw badRequest('commands must be an Array');
    if (commands.length > 100) throw badRequest('too many commands');
    for (const command of commands) {
      if (typeof command?.command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(command.command)) throw badRequest('BOT_COMMAND_INVALID');
      if (typeof command.description !== 'string' || command.description.length < 1 || command.description.length > 256) {
        throw badRequest('command description must be 1-256 characters long');
      }
    }
    const key = commandsKey(p.json<BotCommandScope>('scope'), p.string('language_code'));
    if (commands.length === 0) bot.commands.delete(key);
    else bot.commands.set(key, commands.map(({ command, description }) => ({ command, description })));
    this.state.changed();
    return true;
  }
}
