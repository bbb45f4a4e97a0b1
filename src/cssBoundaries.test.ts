// A feature's stylesheet is loaded with that feature's screens only, so a class another screen
// relies on must live in the shared layer (src/styles.css, loaded before the first paint, or a
// stylesheet of src/ui/ imported by the shared component that uses it). Otherwise a screen opened
// fresh by its address shows those elements unstyled until some other screen happens to load the
// stylesheet that defines them.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Vitest hands a test every .css import as an empty module (its CSS is off), so the files are read
// from the disk; the app's tsconfig has no Node types, hence the small local one.
interface FileSystem {
  readFileSync(path: string, encoding: 'utf8'): string;
  readdirSync(path: string, options: { recursive: true }): string[];
}
const node = (globalThis as unknown as { process: { cwd(): string; getBuiltinModule(id: 'node:fs'): FileSystem } }).process;
const fs = node.getBuiltinModule('node:fs');
// Vitest runs from the repository's root (import.meta.url is the page's address under happy-dom).
const SRC = `${node.cwd()}/src/`;

/** The files under src/ whose path matches, by their path from the repository's root (/src/...). */
function filesOf(pattern: RegExp): Record<string, string> {
  const files = fs.readdirSync(SRC, { recursive: true }).map((file) => `/src/${file.replaceAll('\\', '/')}`);
  return Object.fromEntries(files.filter((file) => pattern.test(file)).map((file) => [file, fs.readFileSync(`${SRC}${file.slice('/src/'.length)}`, 'utf8')]));
}

const stylesheets = filesOf(/\.css$/);
const sources = filesOf(/^(?!.*\.test\.tsx?$)(?!\/src\/routeTree\.gen\.ts$).*\.tsx?$/);

/** `features/<area>` for a file of a feature, else `shared` (src/styles.css, src/ui/) or the folder. */
function ownerOf(file: string): string {
  const feature = /^\/src\/features\/([^/]+)\//.exec(file);
  if (feature) return `features/${feature[1]}`;
  if (file === '/src/styles.css' || file.startsWith('/src/ui/')) return 'shared';
  return /^\/src\/([^/]+)\//.exec(file)?.[1] ?? 'app';
}

/** The class names a stylesheet's selectors name (comments, declarations and strings left out). */
function classesDefinedIn(css: string): Set<string> {
  let selectors = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(["'])(?:\\.|(?!\1).)*\1/g, '""');
  // Innermost blocks first, so that the selectors inside @media/@supports are kept.
  for (let previous = ''; previous !== selectors; ) {
    previous = selectors;
    selectors = selectors.replace(/\{[^{}]*\}/g, ';');
  }
  return new Set([...selectors.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1]));
}

/** Words of a module's string literals and template parts that could be class names. */
function classLikeWordsIn(source: string): Set<string> {
  const words = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      for (const word of node.text.split(/\s+/)) if (/^-?[_a-zA-Z][\w-]*[a-zA-Z0-9]$/.test(word)) words.add(word);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('module.tsx', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX));
  return words;
}

/** Where each class is defined: the owners of the stylesheets that define it. */
const definedBy = new Map<string, Set<string>>();
for (const [file, css] of Object.entries(stylesheets)) {
  for (const name of classesDefinedIn(css)) {
    const owners = definedBy.get(name) ?? new Set<string>();
    owners.add(ownerOf(file));
    definedBy.set(name, owners);
  }
}

const cssImportsOf = (source: string): string[] =>
  [...source.matchAll(/@import\s+(?:url\()?\s*['"]([^'"]+)['"]|^\s*import\s+(?:[^'";]*\s+from\s+)?['"]([^'"]+\.css)(?:\?[^'"]*)?['"]/gm)].map(
    (match) => match[1] ?? match[2],
  );

/** Resolves a relative or `@/` import of `file` to an absolute /src/ path. */
function resolveImport(file: string, specifier: string): string {
  if (specifier.startsWith('@/')) return `/src/${specifier.slice(2)}`;
  const parts = file.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

describe("a feature's styles", () => {
  it('are found by this test (the globs see the stylesheets and the screens)', () => {
    expect(Object.keys(stylesheets)).toContain('/src/styles.css');
    expect(Object.keys(stylesheets).filter((file) => file.startsWith('/src/features/')).length).toBeGreaterThan(3);
    expect(definedBy.get('screen')).toEqual(new Set(['shared']));
    expect(classLikeWordsIn('<a className={`row x-${kind} row--y${on ? ` row--on` : ""}`} data-x="stack" />')).toEqual(new Set(['row', 'row--y', 'row--on', 'stack']));
  });

  it("are never imported by another feature's stylesheet or module", () => {
    const crossImports: string[] = [];
    for (const [file, text] of [...Object.entries(stylesheets), ...Object.entries(sources)]) {
      const owner = ownerOf(file);
      for (const specifier of cssImportsOf(text)) {
        const target = ownerOf(resolveImport(file, specifier));
        if (target.startsWith('features/') && target !== owner) crossImports.push(`${file} imports ${specifier}`);
      }
    }
    expect(crossImports).toEqual([]);
  });

  it('define only classes that no other feature, shared component or route uses', () => {
    const borrowed: string[] = [];
    for (const [file, source] of Object.entries(sources)) {
      const owner = ownerOf(file);
      for (const name of classLikeWordsIn(source)) {
        const owners = definedBy.get(name);
        if (!owners || owners.has('shared') || owners.has(owner)) continue;
        borrowed.push(`${file} uses .${name}, defined only by ${[...owners].join(', ')}`);
      }
    }
    expect(borrowed).toEqual([]);
  });

  it('do not each define a class of their own that another feature defines too (it is shared then)', () => {
    const twice = [...definedBy]
      .filter(([, owners]) => !owners.has('shared') && [...owners].filter((owner) => owner.startsWith('features/')).length > 1)
      .map(([name, owners]) => `.${name}: ${[...owners].join(', ')}`);
    expect(twice).toEqual([]);
  });
});

/** The module `file`'s imports (not type-only) resolved to files under src/ (.ts, .tsx, .css, index). */
function importsOf(file: string): string[] {
  const source = sources[file] ?? '';
  const found: string[] = [];
  for (const match of source.matchAll(/^\s*import\s+(?!type\s)(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
    const specifier = match[1].replace(/\?.*$/, '');
    if (!specifier.startsWith('.') && !specifier.startsWith('@/')) continue;
    const base = resolveImport(file, specifier);
    const target = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((path) => path in sources || path in stylesheets);
    if (target) found.push(target);
  }
  return found;
}

/** Every module and stylesheet `file` loads, itself included. */
function reachedFrom(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const target of importsOf(file)) reachedFrom(target, seen);
  return seen;
}

describe("a feature's screen opened by its address", () => {
  // The Archive and Sources screens once showed bare text and bulleted lists when opened by their
  // address: they used funnels.css's classes, and loaded it only if another screen had.
  it("loads the stylesheets that define its feature's classes it uses (itself or through what it imports)", () => {
    const screens = Object.keys(sources).filter((file) => /^\/src\/features\/[^/]+\/.*Screen\.tsx$/.test(file));
    expect(screens.length).toBeGreaterThan(20);
    const unstyled: string[] = [];
    for (const screen of screens) {
      const reached = reachedFrom(screen);
      const owner = ownerOf(screen);
      const missing = new Set<string>();
      for (const module of reached) {
        if (!(module in sources) || ownerOf(module) !== owner) continue;
        for (const name of classLikeWordsIn(sources[module])) {
          const owners = definedBy.get(name);
          if (!owners || owners.has('shared') || !owners.has(owner)) continue;
          const sheets = Object.keys(stylesheets).filter((sheet) => ownerOf(sheet) === owner && classesDefinedIn(stylesheets[sheet]).has(name));
          if (!sheets.some((sheet) => reached.has(sheet))) missing.add(`.${name} (${sheets.join(', ')})`);
        }
      }
      if (missing.size > 0) unstyled.push(`${screen}: ${[...missing].join(' ')}`);
    }
    expect(unstyled).toEqual([]);
  });
});

describe('every stylesheet is whole', () => {
  // A merge once cut a rule's body away: the rules after it were read as nested in it and never
  // applied (the payment section's buttons touched, the wait and webhook screens lost rules).
  it.each(Object.keys(stylesheets))('%s opens and closes every block, outside @media/@supports/@container/@layer/@keyframes nesting none', (file) => {
    const css = stylesheets[file].replace(/\/\*[\s\S]*?\*\//g, '').replace(/(["'])(?:\\.|(?!\1).)*\1/g, '""');
    let depth = 0;
    // The blocks that may hold rules: at-rules; a rule inside a plain rule is a cut-off body.
    const stack: boolean[] = [];
    let prelude = '';
    for (const ch of css) {
      if (ch === '{') {
        const atRule = /^\s*@/.test(prelude.split(/[;}]/).at(-1) ?? '');
        expect(stack.length === 0 || stack.at(-1) || atRule, `${file}: a rule inside a rule near “${prelude.trim().slice(-60)}”`).toBeTruthy();
        stack.push(atRule);
        depth++;
        prelude = '';
      } else if (ch === '}') {
        stack.pop();
        depth--;
        expect(depth, `${file}: a block closed twice`).toBeGreaterThanOrEqual(0);
        prelude = '';
      } else prelude += ch;
    }
    expect(depth, `${file}: a block left open`).toBe(0);
  });
});
