/**
 * Import direction is part of the architecture: shared/ imports neither side, web/ never imports
 * gateway/, web's test helpers (web/src/test) stay out of the app, and the scripts' shared helpers
 * (scripts/support) import none of the suites that use them. This walks the source trees and fails
 * on any import that crosses the line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx|mts)$/.test(name)) out.push(path);
  }
  return out;
}

const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map(
    (m) => m[1] ?? '',
  );

function violations(folder: string, forbidden: RegExp): string[] {
  return sourceFiles(join(root, folder)).flatMap((file) =>
    importsOf(file)
      .filter((spec) => forbidden.test(spec))
      .map((spec) => `${relative(root, file)} imports ${spec}`),
  );
}

describe('import boundaries', () => {
  it('shared imports neither gateway nor web', () => {
    expect(violations('shared', /(^|\/)(gateway|web)\/|@wbs\/(gateway|web)/)).toEqual([]);
  });

  it('web never imports gateway', () => {
    expect(violations('web', /(^|\/)gateway\/|@wbs\/gateway|@wbs\/legacy-sim/)).toEqual([]);
  });

  it("web's test helpers (web/src/test) are imported by tests alone, never into the app's bundle", () => {
    const app = sourceFiles(join(root, 'web/src')).filter(
      (file) => !/\.test\.tsx?$/.test(file) && !file.includes(join('web', 'src', 'test') + sep),
    );
    const offending = app.flatMap((file) =>
      importsOf(file)
        .filter((spec) => /(^|\/)test\//.test(spec))
        .map((spec) => `${relative(root, file)} imports ${spec}`),
    );
    expect(offending).toEqual([]);
  });

  it("the scripts' shared helpers import none of the suites", () => {
    expect(violations('scripts/support', /(^|\/)(e2e|fault|attack|replicas|bench)\//)).toEqual([]);
  });

  it('finds the source trees it guards', () => {
    expect(sourceFiles(join(root, 'shared')).length).toBeGreaterThan(3);
    expect(sourceFiles(join(root, 'scripts/support')).length).toBeGreaterThan(3);
  });
});
