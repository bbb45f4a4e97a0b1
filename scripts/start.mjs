#!/usr/bin/env node
// `npm start`: build the SPA when it is missing or older than its sources, then run the server
// (migrations, API, built SPA, service bot) in this same process, so SIGTERM/SIGINT reach it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.resolve(root, process.env.DIST_DIR ?? 'dist');
const builtIndex = path.join(distDir, 'index.html');
const sources = ['src', 'locales', 'contract', 'index.html', 'vite.config.ts', 'package.json'];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

function needsBuild() {
  if (!existsSync(builtIndex)) return 'no build yet';
  // A deployment may ship dist/ without sources; only rebuild when sources are present and newer.
  const built = statSync(builtIndex).mtimeMs;
  const newest = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
  return newest > built ? 'sources changed since the last build' : null;
}

const reason = process.env.SKIP_BUILD ? null : needsBuild();
if (reason) {
  console.log(`Building the app (${reason})…`);
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
}

const { register } = await import('tsx/esm/api');
register();
await import(path.join(root, 'server/main.ts'));
