// microBatch: how the runtime's calls become statements. Under load the database should get a few
// big statements, one after another, not a queue of small ones; a bad item fails only its own call.
import { describe, expect, it } from 'vitest';
import { microBatch } from './micro-batch';

/** A run that records each batch and answers when `release` is called for it. */
function recorder() {
  const batches: number[][] = [];
  const releases: Array<() => void> = [];
  let running = 0;
  let mostAtOnce = 0;
  const run = (items: number[]) => {
    batches.push(items);
    running++;
    mostAtOnce = Math.max(mostAtOnce, running);
    return new Promise<number[]>((resolve) => {
      releases.push(() => {
        running--;
        resolve(items.map((i) => i * 10));
      });
    });
  };
  return { batches, releases, run, mostAtOnce: () => mostAtOnce };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('microBatch', () => {
  it('sends the calls of one turn together and answers each its own result', async () => {
    const r = recorder();
    const call = microBatch(r.run);
    const answers = Promise.all([call(1), call(2), call(3)]);
    await nextTurn();
    expect(r.batches).toEqual([[1, 2, 3]]);
    r.releases[0]();
    expect(await answers).toEqual([10, 20, 30]);
  });

  it('with one batch in flight, the calls made meanwhile wait and go as one batch when it ends', async () => {
    const r = recorder();
    const call = microBatch(r.run, { maxInFlight: 1 });
    const first = call(1);
    await nextTurn();
    const later = [call(2), call(3)];
    await nextTurn();
    const evenLater = [call(4)];
    await nextTurn();
    expect(r.batches).toEqual([[1]]); // nothing else while the first runs
    r.releases[0]();
    expect(await first).toBe(10);
    await nextTurn();
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
    r.releases[1]();
    expect(await Promise.all([...later, ...evenLater])).toEqual([20, 30, 40]);
    expect(r.mostAtOnce()).toBe(1);
  });

  it('splits what waited into batches of at most maxItems, in order', async () => {
    const r = recorder();
    const call = microBatch(r.run, { maxInFlight: 1, maxItems: 2 });
    const answers = Promise.all([1, 2, 3, 4, 5].map((i) => call(i)));
    await nextTurn();
    expect(r.batches).toEqual([[1, 2]]);
    r.releases[0]();
    await nextTurn();
    await nextTurn();
    expect(r.batches).toEqual([[1, 2], [3, 4]]);
    r.releases[1]();
    await nextTurn();
    await nextTurn();
    r.releases[2]();
    expect(await answers).toEqual([10, 20, 30, 40, 50]);
    expect(r.batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('when a batch fails, runs each item alone: only the bad one fails', async () => {
    const call = microBatch(async (items: number[]) => {
      if (items.includes(13)) throw new Error('unlucky');
      return items.map((i) => i + 1);
    }, { maxInFlight: 1 });
    const results = await Promise.allSettled([call(1), call(13), call(2)]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([2, 'unlucky', 3]);
    expect(await call(5)).toBe(6); // and the next batch still runs
  });
});
