// `npm start` and `npm run dev` as an operator's supervisor runs them (docker stop, systemd): a
// SIGTERM to the npm process alone, not to its group, stops the server the way the README says:
// its "stopping" line, a clean exit, the port closed, and no server left running without a parent.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, until, whileRunning } from '../test/eventually';
import { answers, freePort, newDataDir, npm } from '../test/server-process';

const running: Array<() => void> = [];
afterEach(() => {
  for (const kill of running.splice(0)) kill();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopsOnSigterm(script: string[], extraEnv: Record<string, string> = {}): Promise<void> {
  const port = await freePort();
  const dataDir = newDataDir();
  const run = npm(script, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    TELEGRAM_BOT_TOKEN: '',
    SKIP_BUILD: '1',
    DIST_DIR: path.join(dataDir, 'no-dist'),
    LOG_LEVEL: 'info',
    ...extraEnv,
  });
  running.push(() => {
    for (const pid of [...run.output().matchAll(/"pid":(\d+)/g)].map((m) => Number(m[1]))) if (alive(pid)) process.kill(pid, 'SIGKILL');
    run.child.kill('SIGKILL');
  });
  await until(() => answers(port), 'the server to answer', whileRunning(run, 150_000, 100));
  const pidLine = await eventually(() => /"pid":(\d+)/.exec(run.output()), (match) => match !== null, 'the server to log its pid', whileRunning(run, 150_000, 100));
  const serverPid = Number(pidLine?.[1]);
  expect(serverPid).not.toBe(run.child.pid);

  run.child.kill('SIGTERM'); // npm alone, as a supervisor does: not the process group

  expect(await run.exited).toBe(0);
  expect(run.output()).toMatch(/"signal":"SIGTERM","msg":"stopping"/);
  await until(() => !alive(serverPid), 'the server process to end', { timeoutMs: 15_000, pollMs: 100 });
  expect(await answers(port)).toBe(false);
}

describe('stopping through npm', () => {
  it('npm start: SIGTERM to npm stops the server cleanly and closes its port', async () => {
    await stopsOnSigterm(['start']);
  }, 240_000);

  it('npm run dev: SIGTERM to npm stops the server (through tsx watch) and Vite', async () => {
    const vitePort = await freePort();
    await stopsOnSigterm(['run', 'dev'], { VITE_PORT: String(vitePort) });
    const vite = await fetch(`http://127.0.0.1:${vitePort}/`).then(
      () => 'answering',
      () => 'closed',
    );
    expect(vite).toBe('closed');
  }, 240_000);
});
