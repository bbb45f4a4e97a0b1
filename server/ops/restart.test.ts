// `npm start` right after the server was killed with SIGKILL, on the same embedded database: it
// starts every time (the lock of the killed process does not hold it back), and also when the lock
// names a pid that another live process has now (as after a power loss and a reboot). A second
// live server on the same data is still refused.
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { until, whileRunning } from '../test/eventually';
import { answers, freePort, newDataDir, npm, startEnv } from '../test/server-process';

const running: Array<ReturnType<typeof npm>> = [];
afterEach(() => {
  for (const run of running.splice(0)) {
    try {
      process.kill(-run.child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  }
});

/** `npm start` in a process group of its own; resolves once it answers (or throws with its output if it exits). */
async function started(dataDir: string, port: number): Promise<ReturnType<typeof npm>> {
  const run = npm(['start'], { ...startEnv({ dataDir, databaseUrl: null }, port, 'http://127.0.0.1:9'), LOG_LEVEL: 'warn' }, { group: true });
  running.push(run);
  await until(() => answers(port), 'npm start to answer', whileRunning(run, 120_000, 50));
  return run;
}

describe.skipIf(process.platform !== 'linux')('npm start after kill -9', () => {
  it('starts ten times in a row right after the previous server was killed, and refuses a second live one', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    let run = await started(dataDir, port);

    const second = npm(['start'], { ...startEnv({ dataDir, databaseUrl: null }, await freePort(), 'http://127.0.0.1:9'), LOG_LEVEL: 'warn' }, { group: true });
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/The embedded database in .* is in use by process \d+/);

    for (let i = 0; i < 10; i++) {
      process.kill(-run.child.pid!, 'SIGKILL'); // npm and the server, at once; the next starts without waiting
      run = await started(dataDir, await freePort()); // a new port: the answer must come from the new server
    }
  }, 600_000);

  it('starts when the lock left by a killed server names a pid another live process has now', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    const run = await started(dataDir, port);
    const lockPath = path.join(dataDir, 'pgdata.lock');
    const holder = JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number; start: string; boot: string };
    process.kill(-run.child.pid!, 'SIGKILL');
    await run.exited;
    // After a reboot the pid belongs to someone else: here, this live test process.
    writeFileSync(lockPath, JSON.stringify({ ...holder, pid: process.pid }));
    const again = await started(dataDir, port);
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).pid).not.toBe(process.pid);

    // A lock of the earlier version (a bare pid), written before the process that has the pid now started.
    process.kill(-again.child.pid!, 'SIGKILL');
    await again.exited;
    writeFileSync(lockPath, String(process.pid));
    const beforeThisProcess = new Date(Date.now() - process.uptime() * 1000 - 60_000);
    utimesSync(lockPath, beforeThisProcess, beforeThisProcess);
    await started(dataDir, await freePort());
  }, 300_000);
});
