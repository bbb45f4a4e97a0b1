#!/usr/bin/env node
// What each source module costs in a built chunk, in gzipped bytes: the chunk gzipped whole, less
// the chunk gzipped without that module's bytes (from the source map). Run after `npx vite build`:
//   node scripts/bench/modules.mjs dist/assets/index-*.js          (by package)
//   FILES=1 node scripts/bench/modules.mjs dist/assets/index-*.js  (by file)
// The figures are marginal costs: they do not add up to the whole (the rest is shared context).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { eachMapping, TraceMap } from '@jridgewell/trace-mapping';

const file = process.argv[2];
if (!file) throw new Error('usage: node scripts/bench/modules.mjs <built chunk.js>');
const code = readFileSync(file, 'utf8');
const map = new TraceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
const lineStarts = [];
let offset = 0;
for (const line of code.split('\n')) {
  lineStarts.push(offset);
  offset += line.length + 1;
}
const byPackage = (source) => source.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, 'npm:$1').replace(/^(\.\.\/)+/, '');
const byFile = (source) => source.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '');
const name = process.env.FILES ? byFile : byPackage;
// Each mapping segment owns the generated text up to the next segment.
const segments = [];
eachMapping(map, (mapping) => segments.push([lineStarts[mapping.generatedLine - 1] + mapping.generatedColumn, mapping.source ? name(mapping.source) : '(unmapped)']));
segments.sort((a, b) => a[0] - b[0]);
const owner = new Array(code.length).fill('(unmapped)');
segments.forEach(([start, source], index) => owner.fill(source, start, index + 1 < segments.length ? segments[index + 1][0] : code.length));
const gz = (text) => gzipSync(text, { level: 9 }).length;
const whole = gz(code);
const rows = [...new Set(owner)].map((source) => {
  let without = '';
  let raw = 0;
  for (let i = 0; i < code.length; i++) {
    if (owner[i] === source) raw++;
    else without += code[i];
  }
  return { source, raw, gz: whole - gz(without) };
});
rows.sort((a, b) => b.gz - a.gz);
console.log(`${file}: ${whole} B gz`);
for (const row of rows) console.log(`${String(row.gz).padStart(7)} B gz ${String(row.raw).padStart(8)} B  ${row.source}`);
