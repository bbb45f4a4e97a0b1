// The per-bot rate rules, on a clock the test moves: even spacing under the rate, replies before
// bulk messages, one bulk message a second per chat, and a 429's pause for this bot only.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BotRateLimiter, BotRateLimits, SlotAbandonedError } from './rate-limiter';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const clock = () => Date.now();

/** Takes `count` slots of `priority` and records when each was granted. */
function take(limiter: BotRateLimiter, count: number, priority: 'reply' | 'bulk', log: Array<{ at: number; who: string }>, who: string = priority, chat?: (i: number) => number) {
  for (let i = 0; i < count; i++) void limiter.take(priority, chat?.(i)).then(() => log.push({ at: Date.now(), who: `${who}${i}` }));
}

describe('BotRateLimiter', () => {
  it('lets at most the rate through in any second, evenly spaced', async () => {
    const limiter = new BotRateLimiter(10, clock);
    const log: Array<{ at: number; who: string }> = [];
    const start = Date.now();
    take(limiter, 35, 'bulk', log);
    await vi.advanceTimersByTimeAsync(2_950);
    expect(log).toHaveLength(30);
    for (let i = 0; i < log.length; i++) {
      const inWindow = log.filter((e) => e.at >= log[i].at && e.at < log[i].at + 1000).length;
      expect(inWindow).toBeLessThanOrEqual(10);
    }
    expect(log[1].at - log[0].at).toBe(100);
    expect(log[0].at).toBe(start);
  });

  it('keeps one message more than the rate out of any window of that many slots, even after a timer fired late', async () => {
    let late = 0;
    const limiter = new BotRateLimiter(10, () => Date.now() + late);
    const granted: number[] = [];
    const start = Date.now();
    for (let i = 0; i < 25; i++) void limiter.take('bulk').then(() => granted.push(Date.now() + late - start));
    // The slot at 500 ms is granted 60 ms late (a busy event loop); the grid keeps its pace after.
    setTimeout(() => (late = 60), 450);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(granted).toHaveLength(25);
    expect(granted[5]).toBe(560);
    // Any 12 grants in a row span at least 1.1 s: 11 in any 1.1 s, so a 1-second window of 11 at
    // Telegram's side is met even if the network delays one by up to 100 ms more than the next.
    for (let i = 0; i + 11 < granted.length; i++) expect(granted[i + 11] - granted[i]).toBeGreaterThanOrEqual(1100);
    // And it still runs at the rate: 25 in about 2.5 s.
    expect(granted[24]).toBeLessThanOrEqual(2_500);
  });

  it('holds a message one window on until a second after Telegram answered the one a window back', async () => {
    const limiter = new BotRateLimiter(10, clock);
    const start = Date.now();
    const granted: number[] = [];
    // Telegram answers each request 50 ms after it is sent, except the third: 400 ms (a busy
    // machine); it counted that one somewhere in those 400 ms.
    for (let i = 0; i < 25; i++) {
      void limiter.take('bulk', undefined, true).then((ticket) => {
        granted.push(Date.now() - start);
        setTimeout(() => ticket.done(), i === 2 ? 400 : 50);
      });
    }
    await vi.advanceTimersByTimeAsync(4_000);
    expect(granted).toHaveLength(25);
    // A slot one window (11 slots at 10/s) after another goes a second or more after that one
    // was answered, so Telegram never counts them in the same second.
    for (let k = 11; k < granted.length; k++) expect(granted[k]).toBeGreaterThanOrEqual(granted[k - 11] + (k - 11 === 2 ? 400 : 50) + 1000);
    // Slot 13 (one window after the slow third) waits for its answer: 200 + 400 + 1000 ms.
    expect(granted[13]).toBe(1_600);
    // Otherwise the even pace: the late answer cost only its own delay.
    expect(granted[12]).toBe(1_200);
    expect(granted[14]).toBe(1_700);
    expect(granted[24]).toBe(2_700);
  });

  it('gives a reply the next slot ahead of waiting bulk messages', async () => {
    const limiter = new BotRateLimiter(10, clock);
    const log: Array<{ at: number; who: string }> = [];
    take(limiter, 20, 'bulk', log);
    await vi.advanceTimersByTimeAsync(250);
    take(limiter, 1, 'reply', log);
    await vi.advanceTimersByTimeAsync(200);
    const reply = log.find((e) => e.who === 'reply0');
    expect(reply).toBeDefined();
    // Bulk 0,1,2 went at 0,100,200; the reply takes the slot at 300, before bulk 3.
    expect(log.map((e) => e.who).slice(0, 5)).toEqual(['bulk0', 'bulk1', 'bulk2', 'reply0', 'bulk3']);
  });

  it('lets a waiting caller give up (a stopping runtime): it gets no slot, and the next in line gets its turn', async () => {
    const limiter = new BotRateLimiter(10, clock);
    const log: Array<{ at: number; who: string }> = [];
    const stop = new AbortController();
    take(limiter, 3, 'reply', log);
    const given: string[] = [];
    const abandoned = Array.from({ length: 50 }, (_, i) =>
      limiter.take('reply', undefined, false, stop.signal).then(
        () => given.push(`late${i}`),
        (error: unknown) => (error instanceof SlotAbandonedError ? 'abandoned' : 'other'),
      ),
    );
    take(limiter, 1, 'bulk', log);
    await vi.advanceTimersByTimeAsync(150);
    stop.abort();
    // Two of the 53 replies went at 0 and 100 ms; the fifty behind the third give up at once.
    expect(await Promise.all(abandoned)).toEqual(Array(50).fill('abandoned'));
    await vi.advanceTimersByTimeAsync(200);
    // The third reply went at 200 ms, and the bulk message next, at 300: not after fifty slots.
    expect(log.map((e) => e.who)).toEqual(['reply0', 'reply1', 'reply2', 'bulk0']);
    expect(given).toEqual([]);
    await expect(limiter.take('reply', undefined, false, stop.signal)).rejects.toBeInstanceOf(SlotAbandonedError);
  });

  it('sends bulk messages to one chat at most once a second', async () => {
    const limiter = new BotRateLimiter(30, clock);
    const log: Array<{ at: number; who: string }> = [];
    take(limiter, 3, 'bulk', log, 'same', () => 42);
    await vi.advanceTimersByTimeAsync(2_100);
    expect(log).toHaveLength(3);
    expect(log[1].at - log[0].at).toBeGreaterThanOrEqual(1000);
    expect(log[2].at - log[1].at).toBeGreaterThanOrEqual(1000);
  });

  it("waits out a 429's retry_after for this bot only", async () => {
    const limits = new BotRateLimits(10);
    const a = limits.of(1);
    const b = limits.of(2);
    expect(limits.of(1)).toBe(a);
    a.pauseFor(2);
    const log: Array<{ at: number; who: string }> = [];
    const start = Date.now();
    take(a, 1, 'bulk', log, 'a');
    take(b, 1, 'bulk', log, 'b');
    await vi.advanceTimersByTimeAsync(2_050);
    expect(log.find((e) => e.who === 'b0')!.at).toBe(start);
    expect(log.find((e) => e.who === 'a0')!.at).toBe(start + 2000);
  });
});
