import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';

// The dev server proxies the API to the server started by `npm run dev` (PORT, default 3000);
// `vite preview` does the same, so a built app can be looked at against a running server.
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [
    // Must come before react(): it generates src/routeTree.gen.ts and splits each route's code.
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/routeTree.gen.ts' }),
    react(),
  ],
  resolve: {
    alias: [
      // TanStack's store asks for the shim that backs useSyncExternalStore on React < 18; React 19
      // has it built in, and the package's own non-shim build uses that.
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
    ],
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    // Browsers without <link rel=modulepreload> still work, they just fetch chunks a bit later.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically (React, the router, i18next, jotai, the
            // route tree, state, the app's chrome): what every first paint needs, in the entry's
            // own file (one gzip stream compresses better than several). Screens, their strings,
            // the Telegram SDK, Sentry and ky are dynamic imports: they load only when needed.
            { name: 'shell', tags: ['$initial'] },
            // The building blocks the screens share (page scaffolding; the account screens' layout,
            // form controls and form errors; the server's messages), in one file instead of many
            // small ones.
            {
              name: 'screens',
              test: /src[\\/](ui[\\/](Screen|form|brandIcon)|features[\\/]auth[\\/](AuthLayout|validation|useFormErrors|useAuth)|api[\\/]serverMessages)\b/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': apiTarget } },
  preview: { proxy: { '/api': apiTarget } },
});
