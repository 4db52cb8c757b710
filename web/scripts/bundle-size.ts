/**
 * Initial JS of the public pages: every script index.html loads (the entry and the app's chunks it
 * preloads, which the entry imports once the page is painted) plus every chunk they import
 * statically (what loads before the first render), gzip-compressed. Run after `vite build`.
 * Exits 1 when the budget (150 KB gzip) is exceeded or when pdfmake or a chart library is part of
 * the initial load: those must only load when used.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
if (!entry) throw new Error('entry script not found in dist/index.html');
const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g)].map(
  (m) => m[1] ?? '',
);

const seen = new Set<string>();
function visit(file: string): void {
  if (seen.has(file)) return;
  seen.add(file);
  const code = readFileSync(join(dist, file), 'utf8');
  for (const match of code.matchAll(/(?:^|[;\s}])import\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) {
    visit(join('assets', match[1] ?? ''));
  }
}
visit(entry);
for (const file of preloaded) visit(file);

let raw = 0;
let gz = 0;
for (const file of seen) {
  const buffer = readFileSync(join(dist, file));
  raw += buffer.length;
  gz += gzipSync(buffer, { level: 9 }).length;
}
console.log(
  `initial JS: ${seen.size} files, ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip`,
);
for (const file of [...seen].sort()) console.log(`  ${file}`);

const BUDGET_KB = 150;
const LAZY_ONLY = /pdfmake|vfs_fonts|nivo/i;
// Vite names a chunk after its main module, so a lazy library shows up as its own file name.
const eager = [...seen].filter((file) => LAZY_ONLY.test(file));
const problems: string[] = [];
if (gz / 1024 > BUDGET_KB) problems.push(`over budget: ${(gz / 1024).toFixed(1)} KB > ${BUDGET_KB} KB gzip`);
if (eager.length > 0) problems.push(`loaded eagerly but must be lazy: ${eager.join(', ')}`);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
console.log(`within budget (${BUDGET_KB} KB gzip); pdfmake and charts load on demand`);
