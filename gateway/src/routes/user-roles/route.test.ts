import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, legacyCall, signInAs, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());
beforeEach(() => t.legacy.reset());

/** A small seeded generator, so a failing case is the same on every run. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Invalid role ids by class: 0 and negatives, integers the legacy does not offer, huge, fractional, not numbers. */
function invalidRoleIds(offered: number[], count: number): unknown[] {
  const random = generator(20261123);
  const fixed: unknown[] = [
    0,
    -1,
    3,
    99,
    2 ** 31,
    Number.MAX_SAFE_INTEGER,
    1.5,
    '1',
    '2',
    null,
    true,
    [],
    {},
  ];
  const generated: unknown[] = [];
  while (generated.length < count) {
    const kind = Math.floor(random() * 4);
    if (kind === 0) generated.push(-Math.floor(random() * 1e6));
    if (kind === 1) generated.push(Math.max(...offered) + 1 + Math.floor(random() * 1e6));
    if (kind === 2) generated.push(Math.floor(random() * 10) + 0.25 + random() / 2);
    if (kind === 3) generated.push(String(Math.floor(random() * 100)));
  }
  return [...fixed, ...generated].filter((id) => !(typeof id === 'number' && offered.includes(id)));
}

const analystBody = (roleId: unknown, n: number) => ({
  fullName: `Analis ${n}`,
  username: `analis.gen${n}`,
  email: `analis.gen${n}@wbs.example.id`,
  roleId,
  caseLineId: 1,
});
const staffBody = (roleId: unknown, n: number) => ({
  fullName: `Staff ${n}`,
  username: `staff.gen${n}`,
  email: `staff.gen${n}@wbs.example.id`,
  roleId,
});

const cases = [
  { resource: 'analysts', userType: 2, body: analystBody, existing: 1 },
  { resource: 'partner-staff', userType: 3, body: staffBody, existing: 1 },
] as const;

describe('Akses Level: only the role ids the legacy offers (GET /UserRole)', () => {
  it('the options are the legacy list', async () => {
    const cookie = await signInAs(t.app, 2);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user-roles', headers: { cookie } });
    const legacy = await legacyCall<{ id: number; text: string }[]>(t, 'GET', '/UserRole');
    expect(res.json().items).toEqual(legacy.data.map((r) => ({ id: r.id, name: r.text })));
  });

  for (const c of cases) {
    it(`${c.resource}: refuses every invalid role id on create and edit, with the field message`, async () => {
      const offered = (await legacyCall<{ id: number }[]>(t, 'GET', '/UserRole')).data.map((r) => r.id);
      const cookie = await signInAs(t.app, c.userType);
      const ids = invalidRoleIds(offered, 30);
      expect(ids.length).toBeGreaterThan(30);
      let n = 0;
      for (const roleId of ids) {
        n++;
        for (const [method, url] of [
          ['POST', `/api/v1/${c.resource}`],
          ['PUT', `/api/v1/${c.resource}/${c.existing}`],
        ] as const) {
          const res = await t.app.inject({
            method,
            url,
            headers: browser(cookie),
            payload: c.body(roleId, n),
          });
          expect({ roleId, method, status: res.statusCode }).toEqual({ roleId, method, status: 400 });
          expect(res.json().errors).toEqual({ roleId: 'Akses Level tidak valid' });
        }
      }
      // Nothing was created.
      const list = await t.app.inject({
        method: 'GET',
        url: `/api/v1/${c.resource}?pageSize=100`,
        headers: { cookie },
      });
      expect(list.json().items.some((s: { username: string }) => s.username.includes('.gen'))).toBe(false);
    });

    it(`${c.resource}: accepts each offered role id on create and edit`, async () => {
      const offered = (await legacyCall<{ id: number }[]>(t, 'GET', '/UserRole')).data.map((r) => r.id);
      const cookie = await signInAs(t.app, c.userType);
      for (const roleId of offered) {
        const created = await t.app.inject({
          method: 'POST',
          url: `/api/v1/${c.resource}`,
          headers: browser(cookie),
          payload: c.body(roleId, 1000 + roleId),
        });
        expect(created.statusCode).toBe(201);
        const edited = await t.app.inject({
          method: 'PUT',
          url: `/api/v1/${c.resource}/${c.existing}`,
          headers: browser(cookie),
          payload: { ...c.body(roleId, 2000 + roleId) },
        });
        expect(edited.statusCode).toBe(200);
        const detail = await t.app.inject({
          method: 'GET',
          url: `/api/v1/${c.resource}/${c.existing}`,
          headers: { cookie },
        });
        expect(detail.json().roleId).toBe(roleId);
      }
    });
  }
});
