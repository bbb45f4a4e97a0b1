import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, minifySync, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { MESSAGE_NAMESPACES, namespaceProblems, type MessageNamespace } from './src/i18n/namespaces.js';
import { API } from './contract/auth.js';
import { LANGUAGES } from './contract/constants.js';
import { STATS_PERIODS } from './contract/funnels.js';
import { ROUTES } from './contract/routes.js';
import { landingBoot, type BootPlan } from './src/api/bootScript.js';
import { LANDING_SCREENS, type LandingScreen } from './src/routes/-lib/landingScreens.js';

/**
 * `locales/<language>.json?ns=<namespace>` is that locale file cut down to the top-level keys of
 * one i18next namespace (src/i18n/namespaces.ts), as a module whose default export is that part.
 * Translators keep one file per language; each screen fetches only its namespaces. A top-level key
 * that falls in no namespace, or in two, fails the build.
 */
export function localeNamespaces(): Plugin {
  return {
    name: 'locale-namespaces',
    enforce: 'pre',
    load(id) {
      const match = /^(.*[\\/]locales[\\/]\w+\.json)\?(?:.*&)?ns=(\w+)(?:&|$)/.exec(id);
      if (!match) return null;
      const [, file, namespace] = match;
      if (!Object.hasOwn(MESSAGE_NAMESPACES, namespace)) this.error(`${namespace} is not a namespace of src/i18n/namespaces.ts`);
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const problems = namespaceProblems(messages);
      if (problems.length > 0) this.error(`${file}: ${problems.join('; ')}`);
      const keys: readonly string[] = MESSAGE_NAMESPACES[namespace as MessageNamespace];
      return `export default ${JSON.stringify(Object.fromEntries(keys.map((key) => [key, messages[key]])))};`;
    },
  };
}

/**
 * Writes a .br and a .gz next to each text file of the build, compressed as hard as they go, once
 * at build time: the server sends them to browsers that accept them (@fastify/static's
 * `preCompressed`) instead of the files as they are, or compressing on every request.
 */
export function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
        const file = path.join(options.dir ?? 'dist', fileName);
        const source = readFileSync(file);
        const variants = {
          br: brotliCompressSync(source, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: source.length } }),
          gz: gzipSync(source, { level: 9 }),
        };
        for (const [extension, compressed] of Object.entries(variants)) {
          if (compressed.length < source.length) writeFileSync(`${file}.${extension}`, compressed);
        }
      }
    },
  };
}

/**
 * Marks the entry chunk for eager compilation: V8's explicit compile hint (Chrome 136+, so the
 * Android WebView Telegram opens the Mini App in), a `//# allFunctionsCalledOnLoad` comment on the
 * file's first line. Nearly every function of the entry (Preact, the router, i18next, the route
 * tree, the app's state) runs on every open; without the hint V8 compiles each one on the main
 * thread when it is first called, with it it compiles them on a background thread while the file
 * streams in. Added last (after Vite's own first line, `__vite__mapDeps`), with the source map's
 * lines moved down by one. A comment changes nothing the code does, so the file keeps the name
 * (hash) of its code. Only the entry: marking the landing screens' chunks too measured no faster.
 */
export function eagerEntry(): Plugin {
  const HINT = '//# allFunctionsCalledOnLoad\n';
  return {
    name: 'eager-entry',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk' || !output.isEntry) continue;
          output.code = HINT + output.code;
          // The build's source maps are files beside the chunks (`sourcemap: true`).
          const map = bundle[`${output.fileName}.map`];
          if (map?.type === 'asset' && typeof map.source === 'string') {
            const parsed = JSON.parse(map.source) as { mappings: string };
            parsed.mappings = `;${parsed.mappings}`;
            map.source = JSON.stringify(parsed);
          }
        }
      },
    },
  };
}

/**
 * A smaller stand-in for Vite's preload helper (`\0vite/preload-helper.js`, in the entry of every
 * build): with `modulePreload: false` the only dependencies a dynamic import waits for are the
 * stylesheets of the chunk it loads, and this app sets no CSP nonce, so all it has to do is add
 * each stylesheet once, wait for it, and report a failure the way Vite's helper does (the
 * `vite:preloadError` event, then the error). About 0.6 KB gz less on every first paint. Anything
 * but a stylesheet is left to the import itself (Vite preloads no script with modulePreload off).
 * Should Vite rename its helper, this stops matching and bench:bundle shows the entry grow.
 */
export function cssOnlyPreloadHelper(): Plugin {
  const id = '\0vite/preload-helper.js';
  let base = '/';
  return {
    name: 'css-only-preload-helper',
    enforce: 'pre',
    apply: 'build',
    configResolved: (config) => {
      base = config.base;
    },
    resolveId: (source) => (source === id ? id : null),
    load: (source) =>
      source === id
        ? `const seen = {};
const failed = (error) => {
  const event = new Event('vite:preloadError', { cancelable: true });
  event.payload = error;
  window.dispatchEvent(event);
  if (!event.defaultPrevented) throw error;
};
const stylesheet = (href) => (seen[href] ??= document.querySelector('link[rel=stylesheet][href="' + href + '"]') ? Promise.resolve() : new Promise((resolve, reject) => {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.onload = resolve;
  link.onerror = () => { delete seen[href]; link.remove(); reject(new Error('Unable to preload CSS for ' + href)); };
  document.head.appendChild(link);
}));
export const __vitePreload = (load, deps) => Promise.all((deps || []).filter((dep) => dep.endsWith('.css')).map((dep) => stylesheet(${JSON.stringify(base)} + dep).catch(failed))).then(() => load().catch(failed));`
        : null,
  };
}

/**
 * Puts a small inline script in index.html (api/bootScript.ts) that, before the entry is
 * even parsed, preloads (`<link rel="modulepreload">`) what the screen the address opens needs at
 * once (LANDING_SCREENS: its route's chunks with everything they import, and its strings in the
 * visitor's language; with a session the API clients, inside Telegram the launch theme and the
 * startapp path) and, with a session, sends that screen's requests. Every file comes from the HTML
 * in one round trip instead of one import after another, and the data travels with the code.
 */
export function landingPreloads(screens: readonly LandingScreen[] = LANDING_SCREENS): Plugin {
  let base = '/';
  return {
    name: 'landing-preloads',
    apply: 'build',
    configResolved: (config) => {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((output): output is Rolldown.OutputChunk => output.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const entryChunks = chunks.filter((chunk) => chunk.isEntry);
        // What the entry imports statically (Rolldown's runtime) is preloaded for everyone below.
        const entries = new Set(entryChunks.flatMap((chunk) => [chunk.fileName, ...chunk.imports]));
        /** The chunks holding `sourceFile` (a route's split parts too) and all they import, but the entry. */
        const chunksOf = (...sourceFiles: string[]): string[] => {
          const wanted = new Set(sourceFiles.map((file) => path.resolve(import.meta.dirname, file)));
          const found = new Set<string>();
          const visit = (fileName: string) => {
            if (found.has(fileName) || entries.has(fileName)) return;
            found.add(fileName);
            for (const imported of byFile.get(fileName)?.imports ?? []) visit(imported);
          };
          for (const chunk of chunks) if (chunk.moduleIds.some((id) => wanted.has(id.split('?')[0]))) visit(chunk.fileName);
          if (found.size === 0) throw new Error(`landing-preloads: no chunk holds ${sourceFiles.join(', ')}`);
          return [...found];
        };
        // Each language's strings that a first screen needs, one chunk per namespace (i18n.ts
        // imports them by language).
        const namespaces = new Set(['common', ...screens.flatMap((screen) => screen.messages)]);
        const messages: BootPlan['messages'] = {};
        for (const chunk of chunks) {
          const part = chunk.facadeModuleId && /[\\/](\w+)\.json\?ns=(\w+)$/.exec(chunk.facadeModuleId);
          if (part && namespaces.has(part[2])) (messages[part[1]] ??= {})[part[2]] = chunk.fileName;
        }
        const plan: BootPlan = {
          base,
          telegram: chunksOf('src/telegram/theme.ts', 'src/telegram/startPath.ts'),
          session: chunksOf('src/api/users.ts', 'src/api/funnels.ts'),
          me: API.me,
          languages: [...LANGUAGES],
          messages,
          screens: screens.map((screen) => ({ path: screen.path.source, session: screen.session, chunks: chunksOf(screen.routeFile), messages: screen.messages, requests: screen.requests })),
          periods: [...STATS_PERIODS],
          notSignInTokenPaths: [ROUTES.cancel],
        };
        // The boot script's own source (self-contained: see bootScript.ts), minified, run with the plan.
        const script = minifySync('boot.js', `(${landingBoot.toString()})(${JSON.stringify(plan)})`).code.trim();
        // What the entry imports statically (Rolldown's runtime), for everyone: with the entry,
        // not once the entry has arrived.
        const staticPreloads = entryChunks.flatMap((chunk) => chunk.imports).map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`).join('');
        // Right after the charset: before the stylesheet, which a script after it would wait for.
        const charset = /<meta charset="UTF-8" \/>\n/i;
        if (!charset.test(html)) throw new Error('landing-preloads: index.html has no <meta charset="UTF-8" /> to follow');
        return html.replace(charset, (meta) => `${meta}    <script>${script}</script>${staticPreloads}\n`);
      },
    },
  };
}

/**
 * React's names, answered by Preact 11's compat layer: the same components and hooks (React 19's
 * use(), useSyncExternalStore, createRoot) in about a third of react-dom's code, which a phone
 * compiles and runs before the first screen (issue 22's one-second open). TypeScript keeps React's
 * types. Exact names only: `react-dom/server` (the router's SSR code) is never imported here.
 */
export const PREACT_ALIASES = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  // The compat runtime loads compat's hooks into Preact's options before the first element.
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

// The dev server proxies the API to the server started by `npm run dev` (PORT, default 3000);
// `vite preview` does the same, so a built app can be looked at against a running server.
const apiTarget = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [
    // Must come before react(): it generates src/routeTree.gen.ts and splits each route's code.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Loaders are split from the route tree too: each screen's data code (and the API calls it
      // names) comes with that screen, not in every first paint.
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
    }),
    // JSX to `react/jsx-runtime` (Preact's, through PREACT_ALIASES). React Refresh cannot swap
    // Preact's components: without it an edit reloads the page instead of leaving it stale.
    react({ refreshExclude: /./ }),
    localeNamespaces(),
    cssOnlyPreloadHelper(),
    landingPreloads(),
    eagerEntry(),
    precompress(),
  ],
  resolve: {
    alias: [
      // `@/x` is src/x (tsconfig.app.json's paths say the same to TypeScript and ESLint).
      { find: /^@\//, replacement: `${path.resolve(import.meta.dirname, 'src')}/` },
      // TanStack's store asks for the shim that backs useSyncExternalStore on React < 18; React 19
      // has it built in, and the package's own non-shim build uses that.
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
      // react-i18next asks for the plain shim: React 19's own hook is all it needs.
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: path.resolve(import.meta.dirname, 'src/syncExternalStoreShim.ts') },
      ...PREACT_ALIASES,
    ],
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    modulePreload: false,
    rolldownOptions: {
      output: {
        // A locale part is named after its language and namespace (en-auth-*.js), not just 'en'.
        chunkFileNames: (chunk) => {
          const part = chunk.facadeModuleId && /[\\/](\w+)\.json\?ns=(\w+)$/.exec(chunk.facadeModuleId);
          return part ? `assets/${part[1]}-${part[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
        codeSplitting: {
          groups: [
            // Everything the entry imports statically (React, the router, i18next, jotai, the
            // route tree, state, the app's chrome): what every first paint needs, in the entry's
            // own file (one gzip stream compresses better than several). Screens, their strings,
            // the Telegram SDK, Sentry and ky are dynamic imports: they load only when needed.
            { name: 'shell', tags: ['$initial'] },
            // The building blocks the screens share (page scaffolding; the account screens' layout,
            // form controls and form errors), in one file instead of many small ones; with them
            // the sign-in screen itself, the first screen of every guest (still a lazy route, but
            // one file fewer, and one gzip stream, on its first paint).
            {
              name: 'screens',
              test: /src[\\/](ui[\\/](Screen|form|brandIcon)|features[\\/]auth[\\/](AuthLayout|validation|useFormErrors|useAuth|SignInScreen)|routes[\\/]_guest[\\/]sign-in\.tsx\?tsr-split)\b/,
            },
            // The API calls with ky, and what only matters once a call has ended (what a failure
            // means, the table of the server's messages): fetched after the first paint, or by the
            // first call.
            {
              name: 'api',
              test: /node_modules[\\/]ky[\\/]|src[\\/]api[\\/](users|clients|authHeader|errors|serverMessages|action|landingData|timeZone)\b|src[\\/]routes[\\/]-lib[\\/]landing(Screens)?\.ts/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': apiTarget } },
  preview: { proxy: { '/api': apiTarget } },
});
