// Group commit for the database: calls made in one turn of the event loop (by any bot) go as one
// statement. The bot runtime and the delivery engine both batch through it.

/**
 * Calls made in one turn of the event loop are run together by `run` (one result per item, in
 * order). If the batch fails, each item is run alone, so one bad item fails only its own call.
 *
 * With `maxInFlight`, at most that many batches run at once: calls made while they run wait and
 * go together as the next batch when one ends (group commit). Under load a statement then carries
 * many items instead of each turn's few, and the database plans and runs one statement where it
 * would have queued many; when idle, a call still goes at the next turn.
 */
export function microBatch<Item, Result>(
  run: (items: Item[]) => Promise<Result[]>,
  { maxInFlight = Number.POSITIVE_INFINITY, maxItems = Number.POSITIVE_INFINITY }: { maxInFlight?: number; maxItems?: number } = {},
): (item: Item) => Promise<Result> {
  let waiting: Array<{ item: Item; resolve(result: Result): void; reject(error: unknown): void }> = [];
  let inFlight = 0;
  let scheduled = false;
  const schedule = () => {
    if (scheduled || waiting.length === 0 || inFlight >= maxInFlight) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  };
  const flush = async () => {
    if (waiting.length === 0) return;
    if (inFlight >= maxInFlight) return; // the batch running now schedules this one when it ends
    const batch = waiting.length > maxItems ? waiting.splice(0, maxItems) : waiting;
    if (batch === waiting) waiting = [];
    inFlight++;
    schedule(); // the rest, if another batch may run
    try {
      const results = await run(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      else for (const w of batch) run([w.item]).then(([result]) => w.resolve(result), w.reject);
    } finally {
      inFlight--;
      schedule();
    }
  };
  return (item) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      schedule();
    });
}
