// The embedded database has one process: a second process opening the same files (a second
// server, `npm run admin` while the server runs) would corrupt them. So the process that opens
// DATA_DIR/pgdata holds DATA_DIR/pgdata.lock until it closes the database.
//
// The lock must not outlive its holder. A bare pid does: `kill(pid, 0)` is true while a killed
// process is still exiting (or a zombie nobody reaped yet), and after a reboot any live process
// that happens to get that pid would block the start for good. So the lock names the process
// precisely: its pid, its start time (field 22 of /proc/<pid>/stat, in clock ticks since boot) and
// the boot id. A holder counts as alive only if this boot is its boot and the process with that
// pid started at that moment and is not a zombie; one that looks alive is given a few seconds to
// finish dying before the start is refused. Where /proc is missing (macOS), the pid alone is
// checked, as before.
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid} (a running server?). ` +
        'It has one process at a time: stop that process first, or use a PostgreSQL server (DATABASE_URL).',
    );
  }
}

/** How long a holder that still looks alive is watched for its end before the lock is refused. */
export const DYING_HOLDER_WAIT_MS = 3_000;

/** What the lock file says of its holder. */
export interface LockHolder {
  pid: number;
  /** The process's start time in clock ticks since boot (null where /proc is missing). */
  start: string | null;
  /** /proc/sys/kernel/random/boot_id of the boot it ran in (null where it is missing). */
  boot: string | null;
  /** When the lock file was written (ms since the epoch), for a lock of an earlier version (a bare pid). */
  writtenAt?: number;
}

/** /proc's clock ticks (USER_HZ): 100 on every Linux architecture Node runs on. */
const USER_HZ = 100;

/** When a process started, in ms since the epoch: the boot time (btime of /proc/stat) plus its start ticks. */
function startedAtMs(startTicks: string): number | null {
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    return btime ? Number(btime[1]) * 1000 + (Number(startTicks) * 1000) / USER_HZ : null;
  } catch {
    return null;
  }
}

function readBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

/** The state letter and start time of a process from /proc, or null if there is no such process. */
function procStat(pid: number): { state: string; start: string } | null | 'no-proc' {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') {
      try {
        readFileSync('/proc/self/stat');
        return null; // /proc works: the process is gone
      } catch {
        return 'no-proc';
      }
    }
    return 'no-proc';
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0], start: fields[19] };
}

/** This process as a lock holder. */
export function currentHolder(): LockHolder {
  const stat = procStat(process.pid);
  return { pid: process.pid, start: stat && stat !== 'no-proc' ? stat.start : null, boot: readBootId() };
}

function pidAnswers(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process the lock names is still running (not a later process with its pid). */
export function holderAlive(holder: LockHolder): boolean {
  const boot = readBootId();
  if (holder.boot && boot && holder.boot !== boot) return false; // written before a reboot
  const stat = procStat(holder.pid);
  if (stat === 'no-proc') return pidAnswers(holder.pid);
  if (stat === null) return false;
  if (stat.state === 'Z' || stat.state === 'X') return false; // exited; its files are closed
  if (holder.start !== null) return holder.start === stat.start;
  // A bare pid: the process that has it now cannot be the holder if it started after the lock was written.
  const started = startedAtMs(stat.start);
  return !(holder.writtenAt !== undefined && started !== null && started > holder.writtenAt + 2_000);
}

/** A lock file's text: JSON, or a bare pid as earlier versions wrote it. */
export function parseHolder(text: string): LockHolder | null {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed), start: null, boot: null };
  try {
    const value = JSON.parse(trimmed) as Partial<LockHolder>;
    if (!Number.isInteger(value.pid) || (value.pid as number) <= 0) return null;
    return { pid: value.pid as number, start: typeof value.start === 'string' ? value.start : null, boot: typeof value.boot === 'string' ? value.boot : null };
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Takes the lock (throws DataDirInUseError if a live process holds it); answers its release. */
export async function lockDataDir(lockPath: string, dataDir: string, dyingWaitMs = DYING_HOLDER_WAIT_MS): Promise<() => void> {
  const me = currentHolder();
  const mine = JSON.stringify(me);
  let watchedSince: number | null = null;
  for (let attempt = 0; attempt < 1_000; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, mine);
      closeSync(fd);
      return () => {
        try {
          if (parseHolder(readFileSync(lockPath, 'utf8'))?.pid === process.pid) unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder: LockHolder | null;
      try {
        holder = parseHolder(readFileSync(lockPath, 'utf8'));
        if (holder) holder.writtenAt = statSync(lockPath).mtimeMs;
      } catch {
        continue; // released meanwhile: try again
      }
      if (holder && holder.pid !== process.pid && holderAlive(holder)) {
        // A holder that was just killed may still be exiting: give it a moment before refusing.
        watchedSince ??= performance.now();
        if (performance.now() - watchedSince >= dyingWaitMs) throw new DataDirInUseError(dataDir, holder.pid);
        await sleep(100);
        continue;
      }
      try {
        unlinkSync(lockPath); // stale: its process is gone (or the file is unreadable garbage)
      } catch {
        // someone else removed it first
      }
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}
