// Helpers for the benchmark scripts: run `npm start` on a throw-away data folder and make an
// activated user through the real API and the e-mail outbox.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** `startSeconds`: how long the server may take to answer (the embedded database starts slowly on a busy machine). */
export async function startServer({ port, env = {}, startSeconds = 30 }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-'));
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SKIP_BUILD: '1', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_IP: '100000', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Never leave the server behind, however this script ends.
  process.on('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before answering`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > startSeconds * 10) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function activeUserToken(server, email = `bench${Date.now()}@example.com`, password = 'Bench-Password-1') {
  const post = (p, body) => fetch(server.base + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const reg = await post('/api/users/', { email, password, re_password: password, first_name: 'Bench', last_name: 'User' });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const outbox = path.join(server.dataDir, 'outbox');
  let link;
  for (let i = 0; !link && i < 100; i++) {
    const names = existsSync(outbox) ? readdirSync(outbox, { withFileTypes: true }) : [];
    for (const name of names.filter((d) => d.name.endsWith('.eml'))) {
      const mail = await simpleParser(readFileSync(path.join(outbox, name.name)));
      link = mail.text?.match(/\/activate\/([^/\s]+)\/([^/\s]+)\//);
    }
    if (!link) await new Promise((r) => setTimeout(r, 100));
  }
  if (!link) throw new Error('no activation mail');
  await post('/api/users/activation/', { uid: link[1], token: link[2] });
  const login = await post('/api/token/login/', { email, password });
  return (await login.json()).auth_token;
}
