// Latency summaries of the benches.

/** The p-th percentile of an ascending list (NaN when empty). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export interface Spread {
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

/** p50, p90, p95, p99 and max of a list of times (sorted in place). */
export function spread(times: number[]): Spread {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p90: percentile(times, 90), p95: percentile(times, 95), p99: percentile(times, 99), max: times.at(-1) ?? NaN };
}
