// Lint: typescript-eslint's recommended rules, React's hook rules, and the architecture's
// boundaries (../shared/architecture.md) as import rules, so a wrong arrow fails `npm test`
// instead of waiting for a reviewer:
//   contract/ imports neither side; the SPA never imports server code (nor the server the SPA);
//   a feature never imports a route or another feature; ui/, state/, api/, i18n/ and telegram/
//   never import features or routes; the domain (server/<area>/) knows no HTTP; no import cycles.
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
/** The server's folders that are the domain (services and rules): everything but these. */
const NOT_DOMAIN = new Set(['http', 'test', 'db', 'mail', 'bots', 'telegram', 'outbox']);
const domain = dirs('./server/').filter((name) => !NOT_DOMAIN.has(name));

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
    message: 'Shared layers flow one way: ui/state/api → features → routes.',
  },
  { target: './src/features', from: './src/routes', message: 'A feature never imports a route.' },
  { target: './src/state', from: './src/api', message: 'api/ reads state/ (the token), never the other way round.' },
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'No feature imports another: move what both need to ui/, state/ or api/.',
  })),
  {
    target: ['./server/outbox', './server/telegram'],
    from: './server/bots',
    message: 'Arrows run one way: the bot runtime uses telegram/ and outbox/, never the other way round.',
  },
  { target: './server/telegram', from: './server/outbox', message: 'telegram/ knows no outbox: the engine uses it.' },
  ...domain.map((area) => ({
    target: `./server/${area}`,
    from: './server/http',
    message: 'The domain knows no HTTP: throw a domain error, let server/http/ map it.',
  })),
];

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
      'import/no-restricted-paths': ['error', { zones: boundaries }],
      'import/no-self-import': 'error',
      'import/no-useless-path-segments': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // The domain knows no HTTP: not the framework either.
    files: domain.map((area) => `server/${area}/**/*.ts`),
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['fastify', '@fastify/*'], message: 'The domain knows no HTTP.' }] }],
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
