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
            // What every first paint needs, in one file (one gzip stream compresses better than
            // several). The Telegram SDK, Sentry and ky stay out: they load only when needed.
            {
              name: 'shell',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|i18next|react-i18next|jotai|js-cookie|use-sync-external-store)[\\/]/,
            },
            // The building blocks the screens share (layout, form controls, form errors, state),
            // in one file instead of many small ones.
            {
              name: 'screens',
              test: /src[\\/](ui[\\/](Screen|form|svg|brandIcon)|features[\\/]auth[\\/](AuthLayout|validation|useFormErrors|useAuth)|api[\\/](errors|serverMessages)|state[\\/])/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': apiTarget } },
  preview: { proxy: { '/api': apiTarget } },
});
