// `npm start` and `npm run dev` as an operator's supervisor runs them (docker stop, systemd): a
// SIGTERM to the npm process alone, not to its group, stops the server the way the README says:
// its "stopping" line, a clean exit, the port closed, and no server left running without a parent.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, newDataDir, npm } from '../test/server-process';

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

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 150_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function answers(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/api/health`)).ok;
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
  await until('the server to answer', async () => ((await answers(port)) ? true : run.child.exitCode !== null ? Promise.reject(new Error(run.output())) : undefined));
  const serverPid = await until('the server to log its pid', () => {
    const match = /"pid":(\d+)/.exec(run.output());
    return match ? Number(match[1]) : undefined;
  });
  expect(serverPid).not.toBe(run.child.pid);

  run.child.kill('SIGTERM'); // npm alone, as a supervisor does: not the process group

  expect(await run.exited).toBe(0);
  expect(run.output()).toMatch(/"signal":"SIGTERM","msg":"stopping"/);
  await until('the server process to end', () => (alive(serverPid) ? undefined : true), 15_000);
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
