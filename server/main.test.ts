// The process entry as `npm start` runs it: migrations, listening, serving the API and the
// SPA from one port, printing the URL, and a clean exit on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb, tempDir, TEST_DATABASE_URL, type TestDb } from './test/helpers';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Collects a child's output; wait() resolves once the output matches. */
function watchOutput(child: ChildProcess) {
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return {
    wait(pattern: RegExp, timeoutMs = 90_000): Promise<RegExpMatchArray> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) {
            cleanup();
            resolve(match);
          } else if (child.exitCode !== null) {
            cleanup();
            reject(new Error(`exited with ${child.exitCode} before ${pattern}; output:\n${output}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; output:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', check);
        };
        listeners.add(check);
        child.on('exit', check);
        check();
      });
    },
  };
}

describe('server/main.ts', () => {
  let testDb: TestDb | null = null;
  const dataDir = tempDir('funnels-main-');
  afterAll(async () => {
    await testDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts, serves API and SPA on one port, prints the URL, and exits 0 on SIGTERM', { timeout: 120_000 }, async () => {
    const distDir = path.join(dataDir, 'dist');
    mkdirSync(distDir, { recursive: true });
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><div id="app"></div>');
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DIST_DIR: distDir,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://funnels.example',
    };
    delete env.TELEGRAM_BOT_TOKEN;
    delete env.DATABASE_URL;
    delete env.SMTP_URL;
    if (TEST_DATABASE_URL) {
      testDb = await createTestDb();
      env.DATABASE_URL = testDb.url!;
      await testDb.db.close(); // main.ts opens its own pool
    }

    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const output = watchOutput(child);
      const [, base] = await output.wait(/Listening on (http:\/\/127\.0\.0\.1:\d+)/);
      await output.wait(/Public URL: https:\/\/funnels\.example/);

      const health = await fetch(`${base}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      const page = await fetch(`${base}/settings/language/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app">');
      const unknown = await fetch(`${base}/api/unknown/`);
      expect(unknown.status).toBe(404);

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
