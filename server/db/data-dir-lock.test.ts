// The embedded database's lock names its holder precisely (pid, start time, boot id): a lock left
// by a process that is gone, or that names a pid a later process now has, is taken over; one held
// by a live process is refused, after a few seconds given to a holder that may be dying.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test/helpers';
import { currentHolder, DataDirInUseError, holderAlive, lockDataDir, parseHolder } from './data-dir-lock';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Another live process (it sleeps) and what its own lock would say of it. */
async function liveProcess(): Promise<{ pid: number; start: string }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  return { pid: child.pid!, start: stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] };
}

const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

function lockFile(): { lockPath: string; dataDir: string } {
  const dataDir = tempDir('funnels-lock-');
  return { dataDir, lockPath: path.join(dataDir, 'pgdata.lock') };
}

describe.skipIf(process.platform !== 'linux')('the embedded database lock', () => {
  it('names this process by pid, start time and boot id, and lets go of it on release', async () => {
    const { lockPath, dataDir } = lockFile();
    const release = await lockDataDir(lockPath, dataDir);
    const holder = parseHolder(readFileSync(lockPath, 'utf8'));
    expect(holder).toEqual(currentHolder());
    expect(holder?.start).toMatch(/^\d+$/);
    expect(holder?.boot).toBe(bootId());
    release();
    expect(() => readFileSync(lockPath)).toThrow();
  });

  it('refuses while a live process holds it, after waiting for it to die', async () => {
    const { lockPath, dataDir } = lockFile();
    const other = await liveProcess();
    writeFileSync(lockPath, JSON.stringify({ pid: other.pid, start: other.start, boot: bootId() }));
    const startedAt = performance.now();
    const refused = await lockDataDir(lockPath, dataDir, 500).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toContain(`in use by process ${other.pid}`);
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(500);
  });

  it('is taken as soon as its holder, killed while the lock was being asked for, has gone', async () => {
    const { lockPath, dataDir } = lockFile();
    const other = await liveProcess();
    writeFileSync(lockPath, JSON.stringify({ pid: other.pid, start: other.start, boot: bootId() }));
    const asked = lockDataDir(lockPath, dataDir, 10_000);
    setTimeout(() => process.kill(other.pid, 'SIGKILL'), 300);
    const release = await asked;
    expect(parseHolder(readFileSync(lockPath, 'utf8'))?.pid).toBe(process.pid);
    release();
  });

  it('is taken over when it names a live process that started later (the pid was reused)', async () => {
    const { lockPath, dataDir } = lockFile();
    const other = await liveProcess();
    // The holder's start time does not match the process that has the pid now.
    writeFileSync(lockPath, JSON.stringify({ pid: other.pid, start: String(Number(other.start) - 1), boot: bootId() }));
    expect(holderAlive({ pid: other.pid, start: other.start, boot: bootId() })).toBe(true);
    (await lockDataDir(lockPath, dataDir, 60_000))();
  });

  it('is taken over when it was written before a reboot, whoever has its pid now', async () => {
    const { lockPath, dataDir } = lockFile();
    const other = await liveProcess();
    writeFileSync(lockPath, JSON.stringify({ pid: other.pid, start: other.start, boot: '00000000-0000-0000-0000-000000000000' }));
    (await lockDataDir(lockPath, dataDir, 60_000))();
  });

  it("is taken over when an earlier version's bare pid names a process that started after the lock was written", async () => {
    const { lockPath, dataDir } = lockFile();
    const other = await liveProcess();
    writeFileSync(lockPath, String(other.pid));
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lockPath, anHourAgo, anHourAgo);
    (await lockDataDir(lockPath, dataDir, 60_000))();
  });
});
