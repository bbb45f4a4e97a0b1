// The fake Telegram side of `npm run bench:bots`, in its own process so that its cost is not
// counted against the runtime. Driven over IPC by scripts/bench/bots.ts: adds bots, waits until
// they all poll, then plays subscribers (a warm-up first, not counted: connections, JIT and
// caches fill in its first seconds), each following its script (bots-funnel.ts): the next update
// goes as soon as the reply to the last one arrives (an update with no reply due, right away).
// Times each update twice, per kind: from its injection to the bot's reply arriving here
// (everything, this fake's own queues included), and from the getUpdates answer that carried it
// leaving here to the reply arriving (the runtime's share: what "not counting Telegram" leaves).
// Afterwards every chat (warm-up ones too) is compared with its script: each update got exactly
// the reply it should, in order, none lost and none doubled.
import type { InlineKeyboardMarkup, Message, Update } from 'grammy/types';
import { startFakeBotApi } from '../telegram/fake-bot-api';
import { type BenchFunnel, type ScriptStep, scriptOf, type UpdateKind, updatesPerSubscriber } from './bots-funnel';
import { spread, type Spread } from './stats';

type Command =
  | { type: 'addBots'; count: number }
  | { type: 'waitPolling'; tokens: string[] }
  | { type: 'load'; tokens: string[]; funnel: BenchFunnel; rate: number; warmupS: number; durationS: number }
  | { type: 'close' };

export interface KindFigures {
  kind: UpdateKind;
  injected: number;
  replies: number;
  endToEnd: Spread;
  throughFake: Spread;
}

/** Each chat against the updates of its script sent, after the load (warm-up chats included). */
export interface Exactness {
  subscribers: number;
  /** Updates sent (a script stuck waiting for a reply sends no more). */
  updates: number;
  /** Updates sent per kind: what the database must have kept (texts in the inbox, e-mails). */
  sentByKind: Partial<Record<UpdateKind, number>>;
  expectedReplies: number;
  receivedReplies: number;
  /** Chats whose replies are exactly their script's, in order. */
  exactChats: number;
  /** Replies due and never sent (the last update of a chat still waiting at the end counts as late instead). */
  lost: number;
  /** Chats still waiting for the reply to their last update when the check ran (the runtime was behind). */
  late: number;
  /** Replies sent beyond those due (a doubled or unasked-for reply). */
  extra: number;
  /** Replies in a chat's place whose text is not the one due (the wrong stage). */
  wrong: number;
}

export interface LoadResult {
  type: 'result';
  injected: number;
  replies: number;
  unanswered: number;
  errors: number;
  elapsedMs: number;
  /** From the end of the load to the last reply: how far behind the runtime was. */
  drainMs: number;
  cpuMs: number;
  endToEnd: Spread;
  throughFake: Spread;
  perKind: KindFigures[];
  exactness: Exactness;
  /** [bot id, update id, kind] of every measured update: the runtime side times them per kind. */
  updateKinds: Array<[number, number, UpdateKind]>;
}

interface Subscriber {
  token: string;
  id: number;
  script: ScriptStep[];
  /** The step sent and waiting for its reply (or the next to send). */
  step: number;
  /** How many of its steps were sent. */
  sent: number;
  sentAt: number;
  /** When the getUpdates answer carrying the step left here. */
  deliveredAt: number | undefined;
  /** The last message the bot sent them: its buttons are the ones pressed. */
  last: Message | undefined;
}

const send = (message: unknown) => process.send!(message);
const keyOf = (token: string, chatId: number) => `${token}:${chatId}`;

async function main(): Promise<void> {
  const fake = await startFakeBotApi();
  // The web page's long polls are not used here; nothing else listens to 'change'.
  /** Subscribers waiting for a reply, by token and chat. */
  const waiting = new Map<string, Subscriber>();
  const everyone: Subscriber[] = [];
  const endToEnd = new Map<UpdateKind, number[]>();
  const throughFake = new Map<UpdateKind, number[]>();
  const injectedByKind = new Map<UpdateKind, number>();
  const updateKinds: Array<[number, number, UpdateKind]> = [];
  let replies = 0;
  let injected = 0;
  let lastReplyAt = 0;
  let errors = 0;
  let playing = false;
  /** Updates injected before this moment are the warm-up: handled, but not counted. */
  let measureFrom = Infinity;
  const push = (lists: Map<UpdateKind, number[]>, kind: UpdateKind, ms: number) => {
    const list = lists.get(kind);
    if (list) list.push(ms);
    else lists.set(kind, [ms]);
  };

  /** Sends the subscriber's current step; a step with no reply due goes on to the next at once. */
  const sendStep = (sub: Subscriber): void => {
    for (;;) {
      const step = sub.script[sub.step];
      if (!step) return;
      const now = performance.now();
      let update: Update;
      if (step.kind === 'next' || step.kind === 'choice') {
        const button = (sub.last?.reply_markup as InlineKeyboardMarkup | undefined)?.inline_keyboard
          .flat()
          .find((b) => b.text === step.text && 'callback_data' in b);
        if (!sub.last || !button || !('callback_data' in button)) {
          console.error(`bench: no "${step.text}" button in the last reply to ${sub.id}; the script stops there`);
          return;
        }
        update = fake.pressButton(sub.token, { from: { id: sub.id, first_name: 'Sub' }, message_id: sub.last.message_id, callback_data: button.callback_data });
      } else {
        update = fake.sendUserMessage(sub.token, { from: { id: sub.id, first_name: 'Sub' }, text: step.text });
      }
      sub.sentAt = now;
      sub.deliveredAt = undefined;
      sub.sent += 1;
      if (now >= measureFrom) {
        injected += 1;
        injectedByKind.set(step.kind, (injectedByKind.get(step.kind) ?? 0) + 1);
        updateKinds.push([Number(sub.token.split(':')[0]), update.update_id, step.kind]);
      }
      if (step.reply !== null) {
        waiting.set(keyOf(sub.token, sub.id), sub);
        return;
      }
      sub.step += 1;
    }
  };

  const original = fake.callMethod.bind(fake);
  fake.callMethod = async (token, method, params, signal) => {
    const arrivedAt = performance.now();
    const outcome = await original(token, method, params, signal);
    if (playing && method === 'getUpdates' && outcome.ok) {
      const leftAt = performance.now();
      for (const update of outcome.result as Update[]) {
        const chatId = update.message?.chat.id ?? update.callback_query?.from.id;
        const sub = chatId === undefined ? undefined : waiting.get(keyOf(token, chatId));
        if (sub) sub.deliveredAt ??= leftAt;
      }
    }
    if (!playing || (method !== 'sendMessage' && method !== 'sendPhoto')) return outcome;
    if (!outcome.ok) {
      if (arrivedAt >= measureFrom) errors += 1;
      return outcome;
    }
    const message = outcome.result as Message;
    const key = keyOf(token, message.chat.id);
    const sub = waiting.get(key);
    // A reply nobody waits for is found by the check of every chat afterwards.
    if (!sub) return outcome;
    waiting.delete(key);
    const step = sub.script[sub.step];
    if (sub.sentAt >= measureFrom) {
      push(endToEnd, step.kind, arrivedAt - sub.sentAt);
      if (sub.deliveredAt !== undefined) push(throughFake, step.kind, arrivedAt - sub.deliveredAt);
      replies += 1;
      lastReplyAt = performance.now();
    }
    sub.last = message;
    sub.step += 1;
    setImmediate(() => sendStep(sub));
    return outcome;
  };

  /** Every chat against its script: the bot's messages there, in order, are the replies due. */
  const checkEveryChat = (): Exactness => {
    const result: Exactness = { subscribers: everyone.length, updates: 0, sentByKind: {}, expectedReplies: 0, receivedReplies: 0, exactChats: 0, lost: 0, late: 0, extra: 0, wrong: 0 };
    for (const sub of everyone) {
      const sent = sub.script.slice(0, sub.sent);
      const stillWaiting = waiting.get(keyOf(sub.token, sub.id)) === sub;
      if (stillWaiting) result.late += 1;
      // A reply still on its way is not lost: its update is the last one sent.
      const due = (stillWaiting ? sent.slice(0, -1) : sent).flatMap((step) => (step.reply === null ? [] : [step.reply]));
      const got = fake.botMessages(sub.token, sub.id).map((m) => m.text ?? m.caption ?? '');
      result.updates += sent.length;
      for (const step of sent) result.sentByKind[step.kind] = (result.sentByKind[step.kind] ?? 0) + 1;
      result.expectedReplies += due.length;
      result.receivedReplies += got.length;
      result.lost += Math.max(0, due.length - got.length);
      result.extra += Math.max(0, got.length - due.length);
      let wrong = 0;
      for (let i = 0; i < Math.min(due.length, got.length); i++) if (!got[i].startsWith(due[i])) wrong += 1;
      result.wrong += wrong;
      if (wrong === 0 && due.length === got.length) result.exactChats += 1;
    }
    return result;
  };

  process.on('message', async (command: Command) => {
    if (command.type === 'addBots') {
      const bots = Array.from({ length: command.count }, (_, i) => fake.addBot({ username: `bench${i}_bot` }));
      send({ type: 'bots', bots: bots.map((b) => ({ token: b.token, username: b.username, id: b.id })) });
    } else if (command.type === 'waitPolling') {
      for (;;) {
        const notPolling = command.tokens.filter((token) => !fake.botState(token).polling).length;
        if (notPolling === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      send({ type: 'polling' });
    } else if (command.type === 'load') {
      playing = true;
      const { tokens, funnel, rate, warmupS, durationS } = command;
      let cpuBefore = process.cpuUsage();
      // Each subscriber sends its script's updates: new subscribers start at rate / that many per second.
      const startsPerSecond = rate / updatesPerSubscriber(funnel);
      const began = performance.now();
      measureFrom = began + warmupS * 1000;
      let measuring = false;
      let started = 0;
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          const elapsedS = (performance.now() - began) / 1000;
          if (!measuring && performance.now() >= measureFrom) {
            measuring = true;
            cpuBefore = process.cpuUsage();
            send({ type: 'measuring' });
          }
          if (elapsedS >= warmupS + durationS) {
            clearInterval(timer);
            return resolve();
          }
          const due = Math.floor(elapsedS * startsPerSecond);
          for (; started < due; started++) {
            const sub: Subscriber = {
              token: tokens[started % tokens.length],
              id: 1_000_000 + started,
              script: scriptOf(funnel, started),
              step: 0,
              sent: 0,
              sentAt: 0,
              deliveredAt: undefined,
              last: undefined,
            };
            everyone.push(sub);
            sendStep(sub);
          }
        }, 5);
      });
      // Scripts under way finish (their updates count when sent after the warm-up).
      const drainDeadline = performance.now() + 60_000;
      while (waiting.size > 0 && performance.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
      const cpu = process.cpuUsage(cpuBefore);
      const unanswered = [...waiting.values()].filter((sub) => sub.sentAt >= measureFrom).length;
      // Every update handed to the runtime (the texts with no reply too), and a doubled reply,
      // which would come after the one awaited, given time to show before the count.
      const handedDeadline = performance.now() + 30_000;
      while (performance.now() < handedDeadline && tokens.some((token) => fake.botState(token).pending_update_count > 0)) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      playing = false;
      const kinds = [...injectedByKind.keys()];
      const result: LoadResult = {
        type: 'result',
        injected,
        replies,
        unanswered,
        errors,
        elapsedMs: lastReplyAt - measureFrom,
        drainMs: lastReplyAt - (measureFrom + durationS * 1000),
        cpuMs: (cpu.user + cpu.system) / 1000,
        endToEnd: spread([...endToEnd.values()].flat()),
        throughFake: spread([...throughFake.values()].flat()),
        perKind: kinds.map((kind) => ({
          kind,
          injected: injectedByKind.get(kind) ?? 0,
          replies: endToEnd.get(kind)?.length ?? 0,
          endToEnd: spread(endToEnd.get(kind) ?? []),
          throughFake: spread(throughFake.get(kind) ?? []),
        })),
        exactness: checkEveryChat(),
        updateKinds,
      };
      send(result);
    } else if (command.type === 'close') {
      await fake.close();
      process.exit(0);
    }
  });
  send({ type: 'ready', url: fake.url });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
