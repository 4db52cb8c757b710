/**
 * Initial JS of the public pages: the entry chunk plus every chunk it imports statically
 * (what index.html loads before the first render), gzip-compressed. Run after `vite build`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
if (!entry) throw new Error('entry script not found in dist/index.html');

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
