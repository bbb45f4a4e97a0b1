// The embedded database has one process: a second process opening the same files (a second
// server, `npm run admin` while the server runs) would corrupt them. So the process that opens
// DATA_DIR/pgdata holds DATA_DIR/pgdata.lock, with its pid, until it closes the database; a lock
// left by a process that is gone (kill -9, a crash) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock (throws DataDirInUseError if a live process holds it); answers its release. */
export function lockDataDir(lockPath: string, dataDir: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockPath, 'utf8').trim() === String(process.pid)) unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(lockPath, 'utf8').trim());
      } catch {
        continue; // released meanwhile: try again
      }
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) throw new DataDirInUseError(dataDir, holder);
      try {
        unlinkSync(lockPath); // stale: its process is gone
      } catch {
        // someone else removed it first
      }
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}
