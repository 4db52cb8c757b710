/**
 * `pnpm lint:cycles` is only as good as madge's settings (.madgerc): a config madge cannot read, or a
 * resolver that skips `@wbs/*` imports, makes it check nothing and still pass. These run the same
 * command on small trees and on a known import, so such a slip fails here instead.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const madge = join(root, 'node_modules', '.bin', 'madge');

/** madge run from the repository root, so it reads the root .madgerc as `pnpm lint:cycles` does
 * (whatever the folder it checks). */
function run(...args: string[]) {
  const result = spawnSync(madge, ['--no-spinner', '--no-color', ...args], { cwd: root, encoding: 'utf8' });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

const scratch = mkdtempSync(join(tmpdir(), 'wbs-cycles-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the import cycle check', () => {
  it('fails on a cycle through a type-only import between .ts and .tsx files', () => {
    writeFileSync(join(scratch, 'a.ts'), "import type { B } from './b.tsx';\nexport type A = { b?: B };\n");
    writeFileSync(join(scratch, 'b.tsx'), "import type { A } from './a.ts';\nexport type B = { a?: A };\n");
    const { status, out } = run('--circular', scratch);
    expect(out).toContain('Processed 2 files');
    expect(out).toMatch(/a\.ts > .*b\.tsx/);
    expect(status).toBe(1);
  });

  it('follows @wbs/* workspace imports into their sources', () => {
    const { status, out } = run('--json', '--basedir', '.', 'gateway/src/uploads/spool.ts');
    expect(status).toBe(0);
    const tree = JSON.parse(out.slice(out.indexOf('{'))) as Record<string, string[]>;
    expect(tree['gateway/src/uploads/spool.ts']).toContain('shared/src/messages.ts');
  });
});
