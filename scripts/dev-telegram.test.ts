// `npm run dev:telegram` stopped the ways a developer or a supervisor stops it: a SIGTERM to the
// npm process alone, or to its whole process group. The fake Bot API, the server and Vite all
// stop, and npm exits only after they did (nothing left holding a port or the data folder), with
// the fake's bots saved in DATA_DIR/fake-telegram.json for the next start.
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, until, whileRunning } from '../server/test/eventually';
import { freePort, newDataDir, npm } from '../server/test/server-process';

interface ProcessInfo {
  pid: number;
  parent: number;
  zombie: boolean;
  command: string;
}

/** Every process of the machine now, from /proc. */
function processTable(): ProcessInfo[] {
  const table: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      table.push({ pid: Number(name), parent: Number(parent), zombie: state === 'Z', command });
    } catch {
      // it ended while being read
    }
  }
  return table;
}

function descendantsOf(root: number): ProcessInfo[] {
  const table = processTable();
  const found: ProcessInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const info of table) {
      if (parents.has(info.parent) && !parents.has(info.pid)) {
        parents.add(info.pid);
        found.push(info);
        grew = true;
      }
    }
  }
  return found;
}

/** Whether a process still runs (one that ended but is not yet reaped has stopped running). */
function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function answersAt(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** Whether anything accepts connections on the port now. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function startDevTelegram({ group }: { group: boolean }) {
  const [port, vitePort, fakePort, fakeStripePort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const dataDir = newDataDir();
  const run = npm(
    ['run', 'dev:telegram'],
    { PORT: String(port), VITE_PORT: String(vitePort), FAKE_TELEGRAM_PORT: String(fakePort), FAKE_STRIPE_PORT: String(fakeStripePort), STRIPE_SECRET_KEY: '', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info' },
    { group },
  );
  // Whatever is left after a failure goes, also children that outlived npm (no longer its descendants).
  const seen = new Set<number>();
  cleanups.push(() => {
    for (const info of descendantsOf(run.child.pid ?? 0)) seen.add(info.pid);
    for (const pid of seen) if (runs(pid)) process.kill(pid, 'SIGKILL');
    if (runs(run.child.pid ?? 0)) run.child.kill('SIGKILL');
  });
  // The server, Vite (the app) and the fake all answer. Slowly on a busy machine: Vite may first
  // re-bundle its dependencies, and the server migrates a fresh database.
  await until(() => answersAt(`http://127.0.0.1:${port}/api/health`), 'the server to answer', whileRunning(run, 240_000, 1000));
  await until(() => answersAt(`http://127.0.0.1:${vitePort}/`), 'Vite to serve the app', whileRunning(run, 120_000, 1000));
  await until(() => answersAt(`http://127.0.0.1:${fakePort}/control/bots`), 'the fake Bot API to answer', whileRunning(run, 30_000, 500));
  await until(() => answersAt(`http://127.0.0.1:${fakeStripePort}/`), 'the fake Stripe to answer', whileRunning(run, 30_000, 500));
  const processes = descendantsOf(run.child.pid ?? 0);
  for (const info of processes) seen.add(info.pid);
  const named = (part: string) => processes.filter((info) => info.command.includes(part));
  // What must be gone when npm exits (esbuild's helpers end on their own once their parent has).
  const mustStop = processes.filter((info) => !info.command.includes('esbuild'));
  expect(named('fake-bot-api.ts')).not.toEqual([]);
  expect(named('fake-stripe.ts')).not.toEqual([]);
  expect(named('vite')).not.toEqual([]);
  expect(named('server/main.ts')).not.toEqual([]);
  return { run, dataDir, ports: [port, vitePort, fakePort, fakeStripePort], processes, mustStop };
}

async function expectAllStopped(started: Awaited<ReturnType<typeof startDevTelegram>>): Promise<void> {
  const { run, dataDir, ports, processes, mustStop } = started;
  await run.exited;
  // Checked the moment npm is gone: the fake, the server and Vite had stopped before it.
  expect(mustStop.filter((info) => runs(info.pid)).map((info) => info.command)).toEqual([]);
  await until(() => processes.every((info) => !runs(info.pid)), 'every child of npm run dev:telegram to end', { timeoutMs: 5000, pollMs: 100 });
  for (const port of ports) expect(await listening(port)).toBe(false);
  const saved = await eventually(
    () => readOrEmpty(path.join(dataDir, 'fake-telegram.json')),
    (text) => text.includes('demo_shop_bot'),
    "the fake's state in DATA_DIR",
  );
  expect(saved).toContain('demo_course_bot');
}

describe('npm run dev:telegram stops whole', () => {
  it('a SIGTERM to the npm process stops the fake, the server and Vite before npm exits', async () => {
    const started = await startDevTelegram({ group: false });
    started.run.child.kill('SIGTERM'); // npm alone, as `docker stop` or systemd's main-process stop does
    await expectAllStopped(started);
    expect(started.run.child.exitCode).toBe(0);
  }, 420_000);

  it('a SIGTERM to the process group stops them all the same', async () => {
    const started = await startDevTelegram({ group: true });
    process.kill(-(started.run.child.pid ?? 0), 'SIGTERM'); // as Ctrl-C in a terminal or systemd's default
    await expectAllStopped(started);
  }, 420_000);
});
