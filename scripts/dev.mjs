#!/usr/bin/env node
// `npm run dev`: the server restarted on change (tsx watch) and Vite with hot reload, which
// proxies /api to the server. Links in e-mails point at the Vite dev server.
//
// Both run as plain node processes (no npx, no shell in between), and a SIGTERM or SIGINT to this
// process is passed to them and waited for: tsx watch hands it to the server, which stops the way
// `npm start` does (updates being handled finish, polling stops, the outbox stops claiming).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT ?? '3000';
const vitePort = process.env.VITE_PORT ?? '5173';
const env = { ...process.env, PORT: port, PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${vitePort}` };
/** Above the server's own shutdown timeout (10 s). */
const STOP_TIMEOUT_MS = 15_000;

const run = (script, args) => spawn(process.execPath, [path.join(root, script), ...args], { stdio: 'inherit', env, cwd: root });
const children = [
  run('node_modules/tsx/dist/cli.mjs', ['watch', '--clear-screen=false', 'server/main.ts']),
  run('node_modules/vite/bin/vite.js', ['--port', vitePort, '--host', '127.0.0.1', '--strictPort']),
];
const exited = children.map((child) => new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 0))));

let stopping = false;
async function stop(signal, code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  setTimeout(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    process.exit(1);
  }, STOP_TIMEOUT_MS).unref();
  await Promise.all(exited);
  process.exit(code);
}
// One of them ending (a crash, a taken port) ends the other too.
exited.forEach((done) => done.then((code) => stop('SIGTERM', code)));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
