// The fake's lasting state in a JSON file (`--state <file>`), so that `npm run dev:telegram`
// keeps its bots, chats, messages, files and update offsets across restarts. What only matters
// while the process runs (a waiting long poll, a webhook delivery in flight, injected failures,
// the call log, the sending limits' counters) is not kept. The file is written whole to a
// temporary file and renamed over the old one, so a crash mid-write never leaves half a file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BotCommand, Chat, MenuButton, ReplyKeyboardMarkup, Update, UserFromGetMe } from 'grammy/types';
import type { CallbackAnswer, CallbackRecord, FakeBot, FakeChat, StoredFile, StoredMessage, Subscriber, Webhook } from './model';
import type { FakeState } from './state';

/** Bumped when the shape changes; a file of another version is ignored (the fake starts empty). */
const STATE_FILE_VERSION = 1;
/** Changes come in bursts (a reply is several calls): one write per burst. */
export const STATE_WRITE_DEBOUNCE_MS = 200;

interface PersistedChat {
  id: number;
  user: Subscriber;
  chat: Chat.PrivateChat;
  messages: StoredMessage[];
  nextMessageId: number;
  blocked: boolean;
  menuButton?: MenuButton;
  replyKeyboard?: ReplyKeyboardMarkup;
  lastUserActionSeq: number;
  chatInstance: string;
  callbackAnswers: CallbackAnswer[];
}

interface PersistedBot {
  token: string;
  me: UserFromGetMe;
  revoked: boolean;
  updates: Update[];
  nextUpdateId: number;
  allowedUpdates: string[];
  webhook?: Webhook;
  descriptions: Array<[string, string]>;
  shortDescriptions: Array<[string, string]>;
  commands: Array<[string, BotCommand[]]>;
  defaultMenuButton?: MenuButton;
  chats: PersistedChat[];
  callbacks: Array<[string, CallbackRecord]>;
  paidBroadcastEligible: boolean;
}

type PersistedFile = Omit<StoredFile, 'data'> & { data?: string };

export interface PersistedFakeState {
  version: typeof STATE_FILE_VERSION;
  seq: number;
  bots: PersistedBot[];
  files: PersistedFile[];
}

function persistChat(chat: FakeChat): PersistedChat {
  return { ...chat, messages: [...chat.messages.values()] };
}

function persistBot(bot: FakeBot): PersistedBot {
  return {
    token: bot.token,
    me: bot.me,
    revoked: bot.revoked,
    updates: bot.updates,
    nextUpdateId: bot.nextUpdateId,
    allowedUpdates: bot.allowedUpdates,
    ...(bot.webhook ? { webhook: bot.webhook } : {}),
    descriptions: [...bot.descriptions],
    shortDescriptions: [...bot.shortDescriptions],
    commands: [...bot.commands],
    ...(bot.defaultMenuButton ? { defaultMenuButton: bot.defaultMenuButton } : {}),
    chats: [...bot.chats.values()].map(persistChat),
    callbacks: [...bot.callbacks],
    paidBroadcastEligible: bot.paidBroadcastEligible,
  };
}

export function persistState(state: FakeState): PersistedFakeState {
  const files = [...state.files.values()].map(({ data, ...file }): PersistedFile => ({ ...file, ...(data ? { data: data.toString('base64') } : {}) }));
  return { version: STATE_FILE_VERSION, seq: state.seq, bots: [...state.bots.values()].map(persistBot), files };
}

function restoreBot(saved: PersistedBot): FakeBot {
  return {
    token: saved.token,
    me: saved.me,
    revoked: saved.revoked,
    updates: saved.updates,
    nextUpdateId: saved.nextUpdateId,
    allowedUpdates: saved.allowedUpdates,
    ...(saved.webhook ? { webhook: saved.webhook } : {}),
    delivering: false,
    descriptions: new Map(saved.descriptions),
    shortDescriptions: new Map(saved.shortDescriptions),
    commands: new Map(saved.commands),
    ...(saved.defaultMenuButton ? { defaultMenuButton: saved.defaultMenuButton } : {}),
    chats: new Map(saved.chats.map((chat) => [chat.id, { ...chat, messages: new Map(chat.messages.map((m) => [m.message.message_id, m])) }])),
    failures: [],
    calls: [],
    callbacks: new Map(saved.callbacks),
    freeSends: [],
    paidSends: [],
    chatSends: new Map(),
    stats: { tooMany: 0, perSecond: new Map(), maxSlidingSecond: 0, paidMessages: 0, starTenths: 0 },
    paidBroadcastEligible: saved.paidBroadcastEligible,
  };
}

/** Replaces the state's bots and files with the saved ones; returns the bots restored. */
export function restoreState(state: FakeState, saved: PersistedFakeState): FakeBot[] {
  state.bots.clear();
  state.files.clear();
  state.filesByPath.clear();
  state.seq = saved.seq;
  for (const savedBot of saved.bots) state.bots.set(savedBot.token, restoreBot(savedBot));
  for (const { data, ...file } of saved.files) {
    const stored: StoredFile = { ...file, ...(data ? { data: Buffer.from(data, 'base64') } : {}) };
    state.files.set(stored.file_id, stored);
    state.filesByPath.set(stored.file_path, stored);
  }
  state.changed();
  return [...state.bots.values()];
}

/** The saved state, or null when there is no file yet (or one of another version). */
export function readStateFile(file: string): PersistedFakeState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const saved = JSON.parse(text) as PersistedFakeState;
  return saved.version === STATE_FILE_VERSION ? saved : null;
}

export function writeStateFile(file: string, state: PersistedFakeState): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, file);
}

/**
 * Writes the state after every burst of changes (and after calls: confirming updates with an
 * offset changes the queue without a 'change' event); `flush` writes now, on close.
 */
export function saveStateOnChange(state: FakeState, file: string): { flush(): void } {
  let timer: NodeJS.Timeout | undefined;
  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    writeStateFile(file, persistState(state));
  };
  const schedule = () => {
    timer ??= setTimeout(write, STATE_WRITE_DEBOUNCE_MS);
  };
  state.events.on('change', schedule);
  state.events.on('call', schedule);
  return {
    flush() {
      state.events.off('change', schedule);
      state.events.off('call', schedule);
      write();
    },
  };
}
