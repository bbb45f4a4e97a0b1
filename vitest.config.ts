import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { localeNamespaces } from './vite.config.js';

export default defineConfig({
  plugins: [react(), localeNamespaces()],
  resolve: { alias: [{ find: /^@\//, replacement: `${path.resolve(import.meta.dirname, 'src')}/` }] },
  test: {
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
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          // Each file builds its own app and database; PGlite is CPU-heavy, keep it to 2 cores.
          maxWorkers: 2,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
