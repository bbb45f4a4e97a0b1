// The fake Telegram side of `npm run bench:bots`, in its own process so that its cost is not
// counted against the runtime. Driven over IPC by scripts/bench/bots.ts: adds bots, waits until
// they all poll, then plays subscribers (a warm-up first, not counted: connections, JIT and
// caches fill in its first seconds) (/start, then the next-step button on every reply) and
// times each update twice: from its injection to the bot's reply arriving here (everything, this
// fake's own queues included), and from the getUpdates answer that carried it leaving here to
// the reply arriving (the runtime's share: what "not counting Telegram" leaves).
import type { InlineKeyboardMarkup, Message, Update } from 'grammy/types';
import { startFakeBotApi } from '../telegram/fake-bot-api';
import { spread } from './stats';

type Command =
  | { type: 'addBots'; count: number }
  | { type: 'waitPolling'; tokens: string[] }
  | { type: 'load'; tokens: string[]; rate: number; warmupS: number; durationS: number }
  | { type: 'close' };

const send = (message: unknown) => process.send!(message);


async function main(): Promise<void> {
  const fake = await startFakeBotApi();
  // The web page's long polls are not used here; nothing else listens to 'change'.
  const pending = new Map<string, number>();
  const latencies: number[] = [];
  /** When the update now timed for a chat left the fake in a getUpdates answer. */
  const delivered = new Map<string, number>();
  const runtimeLatencies: number[] = [];
  let replies = 0;
  let injected = 0;
  let lastReplyAt = 0;
  let errors = 0;
  let playing = false;
  /** Updates injected before this moment are the warm-up: handled, but not counted. */
  let measureFrom = Infinity;

  const original = fake.callMethod.bind(fake);
  fake.callMethod = async (token, method, params, signal) => {
    const arrivedAt = performance.now();
    const outcome = await original(token, method, params, signal);
    if (playing && method === 'getUpdates' && outcome.ok) {
      const leftAt = performance.now();
      for (const update of outcome.result as Update[]) {
        const chatId = update.message?.chat.id ?? update.callback_query?.from.id;
        if (chatId !== undefined && pending.has(`${token}:${chatId}`)) delivered.set(`${token}:${chatId}`, leftAt);
      }
    }
    if (!playing || (method !== 'sendMessage' && method !== 'sendPhoto')) return outcome;
    if (!outcome.ok) {
      if (arrivedAt >= measureFrom) errors += 1;
      return outcome;
    }
    const message = outcome.result as Message;
    const key = `${token}:${message.chat.id}`;
    const startedAt = pending.get(key);
    if (startedAt !== undefined) {
      pending.delete(key);
      const deliveredAt = delivered.get(key);
      delivered.delete(key);
      if (startedAt >= measureFrom) {
        latencies.push(arrivedAt - startedAt);
        if (deliveredAt !== undefined) runtimeLatencies.push(arrivedAt - deliveredAt);
        replies += 1;
        lastReplyAt = performance.now();
      }
    }
    const next = (message.reply_markup as InlineKeyboardMarkup | undefined)?.inline_keyboard
      .flat()
      .find((button) => 'callback_data' in button);
    if (next && 'callback_data' in next) {
      const from = { id: message.chat.id, first_name: 'Sub' };
      setImmediate(() => {
        const now = performance.now();
        pending.set(key, now);
        if (now >= measureFrom) injected += 1;
        fake.pressButton(token, { from, message_id: message.message_id, callback_data: next.callback_data! });
      });
    }
    return outcome;
  };

  process.on('message', async (command: Command) => {
    if (command.type === 'addBots') {
      const bots = Array.from({ length: command.count }, (_, i) => fake.addBot({ username: `bench${i}_bot` }));
      send({ type: 'bots', bots: bots.map((b) => ({ token: b.token, username: b.username, id: b.id })) });
    } else if (command.type === 'waitPolling') {
      for (;;) {
        const waiting = command.tokens.filter((token) => !fake.botState(token).polling).length;
        if (waiting === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      send({ type: 'polling' });
    } else if (command.type === 'load') {
      playing = true;
      const { tokens, rate, warmupS, durationS } = command;
      let cpuBefore = process.cpuUsage();
      // Each subscriber makes 3 updates (/start and two next-step presses): start rate/3 per second.
      const startsPerSecond = rate / 3;
      const began = performance.now();
      measureFrom = began + warmupS * 1000;
      let measuring = false;
      let started = 0;
      let subscriber = 1_000_000;
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
            const token = tokens[started % tokens.length];
            const id = subscriber++;
            const now = performance.now();
            pending.set(`${token}:${id}`, now);
            if (now >= measureFrom) injected += 1;
            fake.sendUserMessage(token, { from: { id, first_name: 'Sub' }, text: '/start' });
          }
        }, 5);
      });
      const drainDeadline = performance.now() + 15_000;
      while (pending.size > 0 && performance.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
      playing = false;
      const cpu = process.cpuUsage(cpuBefore);
      const unanswered = [...pending.values()].filter((at) => at >= measureFrom).length;

      send({
        type: 'result',
        injected,
        replies,
        unanswered,
        errors,
        elapsedMs: lastReplyAt - measureFrom,
        drainMs: lastReplyAt - (measureFrom + durationS * 1000),
        cpuMs: (cpu.user + cpu.system) / 1000,
        endToEnd: spread(latencies),
        throughFake: spread(runtimeLatencies),
      });
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
