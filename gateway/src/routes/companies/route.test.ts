import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signInAs, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('companies', () => {
  it('options: type 1 sees every company, partner users only their partner’s', async () => {
    const admin = await signInAs(t.app, 1);
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/v1/companies/options',
      headers: { cookie: admin },
    });
    expect(all.json().items.map((c: { id: number }) => c.id)).toEqual([1, 2, 3]);
    for (const type of [3, 5]) {
      const cookie = await signInAs(t.app, type);
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/companies/options',
        headers: { cookie },
      });
      expect(res.json().items).toEqual([
        { id: 1, name: 'Perusahaan 1' },
        { id: 2, name: 'Perusahaan 2' },
      ]);
    }
  });

  it('case categories follow the company scope', async () => {
    const partner = await signInAs(t.app, 3);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/case-categories?companyId=2',
      headers: { cookie: partner },
    });
    expect(mine.statusCode).toBe(200);
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/v1/case-categories?companyId=3',
      headers: { cookie: partner },
    });
    expect(other.statusCode).toBe(404);
    const guest = await t.app.inject({ method: 'GET', url: '/api/v1/case-categories' });
    expect(guest.json().items).toEqual([{ id: 1, name: 'Korupsi', groupId: null, groupName: null }]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/case-categories?companyId=2' })).statusCode,
    ).toBe(404);
  });

  it('case statuses are sorted by order', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/case-statuses' });
    expect(res.json().items.map((s: { order: number }) => s.order)).toEqual([1, 2]);
  });
});
