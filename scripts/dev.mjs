#!/usr/bin/env node
// `npm run dev`: the server restarted on change (tsx watch) and Vite with hot reload, which
// proxies /api to the server. Links in e-mails point at the Vite dev server.
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '3000';
const vitePort = process.env.VITE_PORT ?? '5173';
const env = { ...process.env, PORT: port, PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${vitePort}` };

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], { stdio: 'inherit', env }),
  spawn('npx', ['vite', '--port', vitePort, '--host', '127.0.0.1', '--strictPort'], { stdio: 'inherit', env }),
];

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());
