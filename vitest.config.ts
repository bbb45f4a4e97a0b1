import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localeNamespaces } from './vite.config.js';
import SlowFirstSequencer from './server/test/sequencer';

export default defineConfig({
  plugins: [react(), localeNamespaces()],
  resolve: { alias: [{ find: /^@\//, replacement: `${path.resolve(import.meta.dirname, 'src')}/` }] },
  test: {
    // Vitest takes the sequencer from the root config only; it moves the server's slow files first.
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        // Components render here with React itself, not Preact as in the build (vite.config.ts
        // PREACT_ALIASES): Vitest loads Testing Library and the use-sync-external-store shims as
        // CommonJS through Node's require, which no alias reaches. The e2e suite runs the build.
        extends: true,
        test: {
          name: 'unit',
          environment: 'happy-dom',
          include: ['src/**/*.test.{ts,tsx}', 'contract/**/*.test.ts'],
          // Some scan every source file (src/cssBoundaries.test.ts): >5 s on a loaded 2-core machine.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          // One migrated database per run; each file's createTestDb starts from a copy of it.
          globalSetup: ['server/test/global-setup.ts'],
          // Each file builds its own app and database; PGlite is CPU-heavy, keep it to 2 cores.
          maxWorkers: 2,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
