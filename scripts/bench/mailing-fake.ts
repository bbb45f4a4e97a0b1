// The fake Telegram side of `npm run bench:mailing`, in its own process so its cost is not counted
// against the sender. Driven over IPC by scripts/bench/mailing.ts: makes bots and subscribers,
// reports what Telegram's limits saw per bot (sends per second, 429s) and who got how many
// messages, and times subscribers' /start during a mailing: from the update's injection to the
// bot's reply arriving here.
import type { Message } from 'grammy/types';
import { startFakeBotApi } from '../telegram/fake-bot-api';
import { Params } from '../telegram/fake-bot-api/request-body';
import { spread } from './stats';

type Command =
  | { type: 'addBots'; count: number }
  | { type: 'subscribe'; token: string; from: number; count: number }
  | { type: 'probe'; token: string; from: number; count: number; everyMs: number }
  | { type: 'report'; tokens: string[]; text: string }
  | { type: 'arrivals'; tokens: string[] }
  | { type: 'close' };

const send = (message: unknown) => process.send!(message);

async function main(): Promise<void> {
  const fake = await startFakeBotApi();
  const probes = new Map<string, number>();
  const replyTimes: number[] = [];
  /** When each chat got its first message (wall clock, ms), for the letters' lag. */
  const firstArrival = new Map<string, number>();
  const original = fake.callMethod.bind(fake);
  fake.callMethod = async (token, method, params, signal) => {
    const outcome = await original(token, method, params, signal);
    if (method === 'sendMessage' && outcome.ok) {
      const key = `${token}:${(outcome.result as Message).chat.id}`;
      if (!firstArrival.has(key)) firstArrival.set(key, Date.now());
      const at = probes.get(key);
      if (at !== undefined) {
        probes.delete(key);
        replyTimes.push(performance.now() - at);
      }
    }
    return outcome;
  };
  send({ type: 'ready', url: fake.url });
  process.on('message', async (command: Command) => {
    if (command.type === 'addBots') {
      const bots = [];
      for (let i = 0; i < command.count; i++) bots.push(fake.addBot({ username: `mail${Date.now().toString(36)}${i}_bot`, first_name: `Shop ${i}` }));
      send({ type: 'bots', bots: bots.map((b) => ({ token: b.token, username: b.username, id: b.id })) });
    } else if (command.type === 'subscribe') {
      let last = 0;
      for (let i = 0; i < command.count; i++) last = fake.sendUserMessage(command.token, { from: { id: command.from + i, first_name: `P${i}` }, text: '/start' }).update_id;
      // Their /start is old news (they joined long ago): confirmed, so the bot does not answer it now.
      await fake.callMethod(command.token, 'getUpdates', new Params({ offset: last + 1, timeout: 0 }, new Map()));
      send({ type: 'subscribed' });
    } else if (command.type === 'probe') {
      for (let i = 0; i < command.count; i++) {
        setTimeout(() => {
          const id = command.from + i;
          probes.set(`${command.token}:${id}`, performance.now());
          fake.sendUserMessage(command.token, { from: { id, first_name: `Probe${i}` }, text: '/start' });
        }, i * command.everyMs);
      }
      send({ type: 'probing' });
    } else if (command.type === 'report') {
      const perBot = command.tokens.map((token) => {
        const stats = fake.limitStats(token);
        const seconds = Object.entries(stats.per_second)
          .map(([s, n]) => [Number(s), n] as const)
          .sort((a, b) => a[0] - b[0]);
        // Whole seconds only: the first and last are partial.
        const inner = seconds.slice(1, -1).map(([, n]) => n);
        let twice = 0;
        let got = 0;
        for (const chat of fake.botState(token).chats) {
          const n = fake.botMessages(token, chat.id).filter((m) => m.text === command.text).length;
          if (n > 1) twice += 1;
          if (n >= 1) got += 1;
        }
        return { rate: inner.length ? inner.reduce((a, b) => a + b, 0) / inner.length : 0, max: stats.max_per_second, tooMany: stats.too_many_requests, twice, got };
      });
      send({ type: 'report', perBot, replies: spread(replyTimes.splice(0)) });
    } else if (command.type === 'arrivals') {
      const wanted = new Set(command.tokens);
      const list: Array<[string, number, number]> = [];
      for (const [key, at] of firstArrival) {
        const [token, chat] = [key.slice(0, key.lastIndexOf(':')), Number(key.slice(key.lastIndexOf(':') + 1))];
        if (wanted.has(token)) list.push([token, chat, at]);
      }
      send({ type: 'arrivals', list });
    } else if (command.type === 'close') {
      await fake.close();
      process.exit(0);
    }
  });
}

void main();
