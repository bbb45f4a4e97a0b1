// The server suite's order: the files that take minutes (real processes, signals, outages, the
// ledger's long replay) start first, so the two workers end together instead of one of them
// starting a two-minute file when everything else is done. Vitest orders by the last run's
// durations only when it has them (not on a clean clone, as in CI); otherwise by file size.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Slowest first, as measured in CI (/tmp/ci.log of the 37.7-minute run: 40-140 s each on PGlite). */
const SLOW_FILES = [
  'server/partner/ledger.property.test.ts',
  'server/outbox/crash.test.ts',
  'server/ops/restart.test.ts',
  'server/outbox/two-processes.test.ts',
  'server/bots/runtime/database-outage.test.ts',
  'server/http/ownership.test.ts',
  'server/bots/runtime/telegram-outage.test.ts',
  'server/outbox/database-outage.test.ts',
  'scripts/dev-telegram.test.ts',
  'server/ops/signals.test.ts',
  'server/bots/runtime/reply-crash.test.ts',
];

function slowRank(file: TestSpecification): number {
  const path = file.moduleId.replaceAll('\\', '/');
  const index = SLOW_FILES.findIndex((slow) => path.endsWith(`/${slow}`));
  return index === -1 ? SLOW_FILES.length : index;
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the rest keep Vitest's own order.
    return sorted.sort((a, b) => slowRank(a) - slowRank(b));
  }
}
