/**
 * The gateway's house rules, checked on its sources: the legacy API is named only in its repository
 * (gateway/src/legacy/), and no module outside routes/ reaches into a route. Tests and the test
 * helpers (which call legacy-sim directly to set up and check) are outside these rules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;

function sources(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sources(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

/** Production sources, as paths relative to gateway/src with forward slashes. */
const production = sources(SRC)
  .map((path) => relative(SRC, path).split(sep).join('/'))
  .filter((path) => !path.startsWith('test/'));

const text = (path: string) => readFileSync(join(SRC, path), 'utf8');

/** The first path segments of every legacy call (spec section 7), as a quoted path would start. */
const LEGACY_PATH =
  /['"`]\/(WBSCase|JwtAuth|User\/|UserRole|WhistleblowerMaster|PartnerMaster|CompanyMaster|PartnerStaffMaster|CompanyStaffMaster|CaseLine|CaseStatus|CaseCategory|PartnerDashboard|CompanyDashboard|Province|city\/|district\/|unit\/|channel\/)/i;

/**
 * Modules that must take plain inputs (docs/adr/0056-legacy-repository-and-plain-contexts.md): the legacy
 * repository, the domain modules and the policies that decide scope. Their plugin.ts files are Fastify plugins (they decorate the app and the request).
 * Request guards that act on the HTTP exchange itself (limits answering 429 with Retry-After, the
 * tracker's proof, the multipart receiver reading the request stream) are the named exceptions.
 */
const PLAIN_FOLDERS = [
  'legacy/',
  'clocks/',
  'audit/',
  'receipts/',
  'mail/',
  'store/',
  'uploads/',
  'presenters/',
  'policies/',
  'reporter-notices/',
  'second-factor/',
];
const REQUEST_GUARDS = new Set([
  'policies/attempt-limits.ts',
  'policies/flood-limits.ts',
  'policies/tracker-proof.ts',
  'uploads/spool.ts',
]);

describe('gateway boundaries', () => {
  it('names legacy paths only in gateway/src/legacy/', () => {
    const offenders = production.filter(
      (path) => !path.startsWith('legacy/') && LEGACY_PATH.test(text(path)),
    );
    expect(offenders).toEqual([]);
  });

  it('the rule sees a legacy path where one is written', () => {
    expect(LEGACY_PATH.test("path: '/WBSCase/partner/1'")).toBe(true);
    expect(LEGACY_PATH.test('path: `/CompanyMaster/Dropdown/7`')).toBe(true);
    expect(LEGACY_PATH.test("app.get('/cases/search')")).toBe(false);
  });

  it('domain modules, the legacy repository and the scope policies never take a FastifyRequest', () => {
    const offenders = production.filter(
      (path) =>
        PLAIN_FOLDERS.some((folder) => path.startsWith(folder)) &&
        !path.endsWith('/plugin.ts') &&
        !REQUEST_GUARDS.has(path) &&
        /\bFastifyRequest\b/.test(text(path)),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps routes/ to itself: only the app (which registers them) imports route modules', () => {
    const offenders = production.filter(
      (path) =>
        !path.startsWith('routes/') && path !== 'app.ts' && /from ['"](\.\.?\/)+routes\//.test(text(path)),
    );
    expect(offenders).toEqual([]);
  });
});
