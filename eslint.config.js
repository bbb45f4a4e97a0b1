// Lint: typescript-eslint's recommended rules, React's hook rules, and the architecture's
// boundaries (../shared/architecture.md) as import rules, so a wrong arrow fails `npm test`
// instead of waiting for a reviewer:
//   contract/ imports neither side; the SPA never imports server code (nor the server the SPA);
//   a feature never imports a route or another feature; ui/, state/, api/, i18n/ and telegram/
//   never import features or routes; on the server every folder has its layer (see LAYERS):
//   outbox/ and telegram/ never import bots/, the schema imports no service, the domain knows
//   no HTTP and no Telegram client; no import cycles. scripts/lint/boundaries.test.ts proves each
//   rule fires on a probe file.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';

const dirs = (path) =>
  readdirSync(new URL(path, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const features = dirs('./src/features/');
const server = (names) => names.map((name) => `./server/${name}`);
/**
 * The server's layers, bottom up: db/ (schema, migrations, connections) and mail/; messages/
 * (validate and render a message); telegram/ (the only way to Telegram); outbox/ (the delivery engine: telegram/ and db/ only, the domain told
 * through ports); the domain (every other folder:
 * services and rules); then the adapters that drive it: bots/ (the bot runtime) and http/ (the
 * API). app.ts, main.ts and services.ts at the top compose them; test/ and ops/ are for tests.
 */
const LAYERS = new Set(['db', 'mail', 'telegram', 'outbox', 'messages', 'bots', 'http', 'test', 'ops']);
const domain = dirs('./server/').filter((name) => !LAYERS.has(name));
const DOMAIN = server(domain);

const boundaries = [
  {
    target: './contract',
    from: ['./src', './server', './scripts', './e2e'],
    message: 'contract/ is shared by both sides: it imports neither.',
  },
  { target: './src', from: ['./server', './scripts'], message: 'The SPA never imports server code.' },
  { target: './server', from: ['./src'], message: 'The server never imports the SPA.' },
  {
    target: ['./src/ui', './src/state', './src/api', './src/i18n', './src/telegram'],
    from: ['./src/features', './src/routes'],
    message: 'Shared layers flow one way: ui/state/api → features → routes; shared UI never imports a feature.',
  },
  { target: './src/features', from: './src/routes', message: 'A feature never imports a route.' },
  { target: './src/state', from: ['./src/api', './src/ui'], message: 'state/ holds global atoms: it imports neither api/ nor ui/.' },
  { target: './src/i18n', from: ['./src/api', './src/ui'], message: 'i18n/ is below every screen: it imports no api/ or ui/.' },
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'No feature imports another: move what both need to ui/, state/ or api/.',
  })),
  {
    target: ['./server/outbox', './server/telegram'],
    from: './server/bots',
    message: 'The delivery core never reaches into the bot runtime: the runtime uses outbox/ and telegram/, not the other way round.',
  },
  {
    target: './server/telegram',
    from: [...DOMAIN, ...server(['outbox', 'http', 'mail'])],
    message: 'telegram/ talks to Telegram and knows nothing of who sends: it imports only db/, messages/ and config.',
  },
  {
    target: './server/outbox',
    from: [...DOMAIN, './server/http'],
    message: 'The delivery engine tells the domain through its ports; it never imports a service.',
  },
  {
    target: ['./server/db', './server/mail'],
    from: [...DOMAIN, ...server(['telegram', 'outbox', 'messages', 'bots', 'http'])],
    message: 'db/ (the schema included) and mail/ are the bottom layer: they import no service.',
  },
  {
    target: './server/messages',
    from: [...DOMAIN, ...server(['telegram', 'outbox', 'bots', 'http'])],
    message: 'messages/ validates and renders a message for every area: it imports none of them.',
  },
  {
    target: DOMAIN,
    from: server(['http', 'bots', 'telegram']),
    message: 'The domain knows no HTTP and no Telegram client: throw a DomainError, let server/http/ map it; reach Telegram through a port.',
  },
];

/** Production code never imports the tests' helpers (server/test/, the fake Bot API in scripts/). */
const productionOnly = [
  {
    // Tests of the runtime may check its answers against the webhook route's wording.
    target: './server/bots',
    from: './server/http',
    message: 'The bot runtime knows no HTTP: the webhook route hands it updates through its port.',
  },
  { target: './src', from: './src/test', message: 'src/test/ is for tests: the app never imports it.' },
  {
    // Tests of the API may drive the engine and the letter scheduler directly.
    target: './server/http',
    from: server(['outbox', 'telegram']),
    message: 'The API reaches the engine and Telegram through the services (server/services.ts), never directly.',
  },
  {
    target: './server',
    from: ['./server/test', './server/ops', './scripts', './e2e'],
    message: 'Test helpers are for tests: production code never imports server/test/ or scripts/.',
  },
];
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', 'server/test/**', 'server/ops/**', 'e2e/**', 'scripts/**'];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'src/routeTree.gen.ts', 'test-results/**', 'playwright-report/**', 'data/**', '.tmp/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    plugins: { import: importPlugin },
    settings: {
      // The plugin parses the imported files too (for no-cycle): with the TypeScript parser.
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { typescript: { project: ['./tsconfig.app.json', './tsconfig.node.json', './tsconfig.e2e.json'] } },
    },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': ['error', { zones: [...boundaries, ...productionOnly] }],
      'import/no-self-import': 'error',
      'import/no-useless-path-segments': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Tests import their helpers; every other boundary holds for them too.
    files: TEST_FILES,
    rules: { 'import/no-restricted-paths': ['error', { zones: boundaries }] },
  },
  {
    // The domain knows no HTTP and no Telegram client: not the libraries either (Telegram's
    // types are fine: they describe data, they call nothing).
    files: domain.map((area) => `server/${area}/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['fastify', '@fastify/*'], message: 'The domain knows no HTTP.' },
            { group: ['grammy', '@grammyjs/*'], allowTypeImports: true, message: 'The domain knows no Telegram client: take one through a port built in server/telegram/.' },
          ],
        },
      ],
    },
  },
  {
    // contract/ compiles with neither DOM nor Node types (tsconfig.contract.json); no node: imports.
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'contract/ runs on both sides.' }] }],
    },
  },
  {
    // Every string of the API is built by contract/schemas/common.ts's helpers (Text, Day,
    // DateTime, …), which refuse NUL, broken characters and impossible days by default.
    files: ['contract/schemas/*.ts'],
    ignores: ['contract/schemas/common.ts', 'contract/schemas/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Type', property: 'String', message: 'Build strings with Text(), Day(), DateTime() or PatternText() from ./common.' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Relative imports stay within a folder; anything else in src/ is named from the top.
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(?!\\.\\./|contract/|locales/)', message: "Import from another folder of src/ with '@/'." }] },
      ],
      // The API's TypeBox schemas stay on the server: the SPA takes their types, never TypeBox.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/contract/schemas/*'], allowTypeImports: true, message: 'The SPA imports only types from contract/schemas/ (TypeBox stays out of the bundle).' }] },
      ],
    },
  },
  {
    // contract/auth.ts, funnels.ts… are bundled by the SPA: they pass on the schemas' types only.
    files: ['contract/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['./schemas/*'], allowTypeImports: true, message: 'Re-export the types only (export type): the SPA bundles this file, not TypeBox.' }] },
      ],
    },
  },
);
