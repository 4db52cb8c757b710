/**
 * Anonymity as the labels say: hidden reporters' contact details reach handlers masked,
 * may be revealed with a stated reason (an audit event), and the pelapor's "Sembunyikan identitas"
 * hides its identity from handlers on all of its cases.
 */
import type { CaseDetail, CaseListItem } from '@wbs/shared/api/cases';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiProblem } from '../../errors.ts';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import type { Caller } from '../../policies/caller.ts';
import { pelaporHidesIdentity } from '../../policies/reporter-privacy.ts';
import { maskEmail, maskPhone } from '../../presenters/contact-mask.ts';
import {
  browser,
  buildTestApp,
  demoAccount,
  demoLogins,
  legacyCall,
  signIn,
  type TestApp,
} from '../../test/helpers.ts';
import { guestAnonymousFields, multipart, pdfBytes } from '../../test/uploads.ts';
import { REVEAL_LIMITS } from './route.ts';

let t: TestApp;
const login = demoLogins(() => t.app);
const get = async (username: string, url: string) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: browser(await login(username)) });
const post = async (username: string, url: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: browser(await login(username)), payload });

type LegacyContact = { caseWhistleblowerEmail: string; caseWhistleblowerContactNum: string };
const legacyContact = async (id: number) =>
  (await legacyCall<LegacyContact>(t, 'GET', `/WBSCase/partner/${id}`)).data;

const pelaporCases: CaseDetail[] = [];
let anonymousCase: CaseDetail;
let identifiedPelaporCase: CaseDetail;
let guestIdentifiedCase: CaseDetail;

beforeAll(async () => {
  t = await buildTestApp({ LEGACY_TIMEOUT_MS: '3000' });
  const search = await post('pelapor', '/cases/search', {
    from: '2020-01-01',
    to: latestIndonesianToday(),
    pageSize: 100,
  });
  const own = (search.json() as { items: CaseListItem[] }).items;
  for (const item of own) pelaporCases.push((await get('admin.kahuripan', `/cases/${item.id}`)).json());
  anonymousCase = pelaporCases.find((c) => c.reporter.anonymous)!;
  identifiedPelaporCase = pelaporCases.find((c) => !c.reporter.anonymous)!;
  const all = await post('admin.kahuripan', '/cases/search', {
    from: '2020-01-01',
    to: latestIndonesianToday(),
    pageSize: 100,
  });
  const mine = new Set(own.map((c) => c.id));
  for (const item of (all.json() as { items: CaseListItem[] }).items) {
    if (mine.has(item.id)) continue;
    const detail = (await get('admin.kahuripan', `/cases/${item.id}`)).json() as CaseDetail;
    if (!detail.reporter.anonymous) {
      guestIdentifiedCase = detail;
      break;
    }
  }
});
afterAll(async () => {
  await t.close();
});

describe('masked contact details for handlers', () => {
  it('the seed has what these tests need', () => {
    expect(anonymousCase).toBeDefined();
    expect(identifiedPelaporCase).toBeDefined();
    expect(guestIdentifiedCase).toBeDefined();
  });

  it('an anonymous report reaches every handler kind with e-mail and phone masked, never in clear', async () => {
    const clear = await legacyContact(anonymousCase.id);
    for (const username of ['admin.kahuripan', 'holding', 'staff.holding']) {
      const res = await get(username, `/cases/${anonymousCase.id}`);
      expect(res.statusCode, username).toBe(200);
      const reporter = (res.json() as CaseDetail).reporter;
      expect(reporter).toMatchObject({
        anonymous: true,
        contactMasked: true,
        email: maskEmail(clear.caseWhistleblowerEmail),
        phone: maskPhone(clear.caseWhistleblowerContactNum),
      });
      expect(reporter.email).toMatch(/^p\*\*\*@m\*\*\*\.id$/);
      expect(reporter.phone).toMatch(/^\+62 8\*\* \*\*\*\* \*\d{3}$/);
      expect(res.body).not.toContain(clear.caseWhistleblowerEmail);
      expect(res.body).not.toContain(clear.caseWhistleblowerContactNum);
    }
  });

  it('an identified report of a guest keeps its contact details in clear for handlers', async () => {
    const clear = await legacyContact(guestIdentifiedCase.id);
    expect(guestIdentifiedCase.reporter).toMatchObject({
      anonymous: false,
      identityHidden: false,
      contactMasked: false,
      email: clear.caseWhistleblowerEmail,
      phone: clear.caseWhistleblowerContactNum,
    });
  });

  it('the reporter itself (type 6) still sees its own contact details on its anonymous report', async () => {
    const clear = await legacyContact(anonymousCase.id);
    const own = (await get('pelapor', `/cases/${anonymousCase.id}`)).json() as CaseDetail;
    expect(own.reporter).toMatchObject({
      contactMasked: false,
      email: clear.caseWhistleblowerEmail,
      phone: clear.caseWhistleblowerContactNum,
    });
  });
});

describe('a new anonymous guest report', () => {
  it('reaches handlers masked while the tracker sees its own contact details in clear', async () => {
    const fields = guestAnonymousFields({ email: 'saksi.rahasia@example.com', phone: '081234567890' });
    const body = await multipart(fields, [{ field: 'evidence', name: 'bukti.pdf', bytes: await pdfBytes() }]);
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/cases', ...body });
    expect(created.statusCode, created.body).toBe(201);
    const { caseNumber } = created.json() as { caseNumber: string };

    const tracked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking',
      headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      payload: { caseNumber, password: fields.password },
    });
    expect(tracked.statusCode, tracked.body).toBe(200);
    const own = tracked.json() as CaseDetail;
    expect(own.reporter).toMatchObject({
      anonymous: true,
      contactMasked: false,
      email: 'saksi.rahasia@example.com',
      phone: '081234567890',
    });

    const handler = await get('admin.kahuripan', `/cases/${own.id}`);
    expect((handler.json() as CaseDetail).reporter).toMatchObject({
      contactMasked: true,
      email: 's***@e***.com',
      phone: '+62 8** **** *890',
    });
    expect(handler.body).not.toContain('saksi.rahasia');
    expect(handler.body).not.toContain('3456');
  });
});

describe('POST /cases/{id}/contact-reveal', () => {
  const reason = 'Perlu menghubungi pelapor untuk klarifikasi bukti';

  it('gives an allowed handler the values in clear and writes an audit line without them', async () => {
    const clear = await legacyContact(anonymousCase.id);
    const before = t.logs.length;
    const res = await post('admin.kahuripan', `/cases/${anonymousCase.id}/contact-reveal`, { reason });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      email: clear.caseWhistleblowerEmail,
      phone: clear.caseWhistleblowerContactNum,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const lines = t.logs.slice(before);
    const auditLine = lines.find((l) => l.event === 'contact-revealed');
    expect(auditLine).toMatchObject({
      audit: true,
      userId: expect.any(Number),
      resourceId: anonymousCase.id,
      reasonLength: reason.length,
      wasMasked: true,
    });
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(clear.caseWhistleblowerEmail);
    expect(logged).not.toContain(clear.caseWhistleblowerContactNum);
    expect(logged).not.toContain(reason);
  });

  it('works for every kind allowed to write activity logs and no other', async () => {
    for (const username of ['holding', 'staff.holding', 'analis.direksi']) {
      const res = await post(username, `/cases/${anonymousCase.id}/contact-reveal`, { reason });
      // analis.direksi sees only the cases of its line: 404 when this one is not, never the values.
      expect([200, 404], username).toContain(res.statusCode);
      if (username !== 'analis.direksi') expect(res.statusCode, username).toBe(200);
    }
    for (const username of ['analis.spi', 'staff.holding2', 'pelapor', 'admin']) {
      const res = await post(username, `/cases/${anonymousCase.id}/contact-reveal`, { reason });
      expect([403, 404], username).toContain(res.statusCode);
      expect(res.body).not.toContain('@mail.example.id');
    }
    const guest = await t.app.inject({
      method: 'POST',
      url: `/api/v1/cases/${anonymousCase.id}/contact-reveal`,
      headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
      payload: { reason },
    });
    expect(guest.statusCode).toBe(401);
  });

  it('is 404 for a case of another company (scope-checked like every case route)', async () => {
    const res = await post('admin.pakuan', `/cases/${anonymousCase.id}/contact-reveal`, { reason });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('@mail.example.id');
  });

  it('requires a reason of 10 to 500 characters with words in it, with Indonesian messages', async () => {
    const url = `/cases/${anonymousCase.id}/contact-reveal`;
    const cases: [object, string][] = [
      [{}, 'Alasan wajib diisi'],
      [{ reason: '' }, 'Alasan wajib diisi'],
      [{ reason: '          ' }, 'Alasan wajib diisi'],
      [{ reason: 'singkat' }, 'Alasan minimal 10 karakter'],
      [{ reason: 'x'.repeat(501) }, 'Maksimal 500 Karakter'],
      [{ reason: '\u200B'.repeat(12) }, 'Alasan wajib diisi'],
      [{ reason: '!!!!!!!!!!!!' }, 'Alasan harus berisi minimal 2 kata dengan total minimal 10 huruf'],
      [{ reason: 42 }, 'Alasan wajib diisi'],
    ];
    for (const [body, message] of cases) {
      const res = await post('admin.kahuripan', url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors.reason).toBe(message);
    }
  });
});

describe('"Sembunyikan identitas" of the signed-in pelapor', () => {
  const setHidden = async (hideIdentity: boolean) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/profile',
      headers: browser(await login('pelapor')),
      payload: { fullName: 'Rahmat Hidayat', hideIdentity },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('hides name and identity fields from handlers on all of its cases, and masks the contact', async () => {
    await setHidden(true);
    try {
      const identifiedIds = pelaporCases.filter((c) => !c.reporter.anonymous).map((c) => c.id);
      expect(identifiedIds.length).toBeGreaterThan(0);
      for (const id of identifiedIds) {
        const clear = await legacyContact(id);
        for (const username of ['admin.kahuripan', 'holding']) {
          const res = await get(username, `/cases/${id}`);
          const reporter = (res.json() as CaseDetail).reporter;
          expect(reporter, `${username} case ${id}`).toMatchObject({
            anonymous: false,
            identityHidden: true,
            contactMasked: true,
            name: null,
            department: null,
            address: null,
            provinceName: null,
            cityName: null,
            districtName: null,
            email: maskEmail(clear.caseWhistleblowerEmail),
          });
          expect(res.body).not.toContain('Rahmat Hidayat');
          expect(res.body).not.toContain(clear.caseWhistleblowerEmail);
        }
      }
      // The pelapor itself still sees its own report as it filed it (bar its name,
      // docs/product/privacy.md#identity-and-privacy).
      const own = (await get('pelapor', `/cases/${identifiedPelaporCase.id}`)).json() as CaseDetail;
      expect(own.reporter).toMatchObject({ identityHidden: false, contactMasked: false });
      expect(own.reporter.address).toBe(identifiedPelaporCase.reporter.address);
    } finally {
      await setHidden(false);
    }
    const after = (await get('admin.kahuripan', `/cases/${identifiedPelaporCase.id}`)).json() as CaseDetail;
    expect(after.reporter).toMatchObject({ identityHidden: false, name: 'Rahmat Hidayat' });
  });

  it('withholds the identity when the choice cannot be read (fails closed)', async () => {
    const warnings: unknown[] = [];
    const failing = {
      legacy: {
        call: async () => {
          throw new ApiProblem('legacy-unavailable');
        },
      },
      log: { warn: (...args: unknown[]) => warnings.push(args) },
    } as unknown as Caller;
    const legacyCase = { caseWhistleblowerId: 1, caseCompanyId: 1 } as LegacyCase;
    expect(await pelaporHidesIdentity(failing, legacyCase)).toBe(true);
    expect(warnings).toHaveLength(1);
    // A case without a pelapor (a guest's or staff's report) asks nothing.
    expect(await pelaporHidesIdentity(failing, { ...legacyCase, caseWhistleblowerId: null })).toBe(false);
  });
});

describe('reveal limits', () => {
  it('stop a handler harvesting contacts after REVEAL_LIMITS.maxPerClient reveals, not another handler', async () => {
    const own = await buildTestApp({ LEGACY_TIMEOUT_MS: '3000' });
    try {
      const cookie = await signIn(own.app, 'admin.kahuripan', demoAccount('admin.kahuripan').password);
      const reveal = (c: string) =>
        own.app.inject({
          method: 'POST',
          url: `/api/v1/cases/${anonymousCase.id}/contact-reveal`,
          headers: { ...browser(c), 'user-agent': 'UA-marker/1.0' },
          remoteAddress: '203.0.113.9',
          payload: { reason: 'Klarifikasi bukti laporan' },
        });
      for (let i = 0; i < REVEAL_LIMITS.maxPerClient; i++)
        expect((await reveal(cookie)).statusCode).toBe(200);
      expect(await own.app.telemetry.registry.metrics()).not.toContain(
        'wbs_contact_reveal_limit_hits_total{',
      );
      const before = own.logs.length;
      const limited = await reveal(cookie);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body).not.toContain('@');
      // An alert: one warn line naming the handler and the limit, nothing of the case, the reporter,
      // the reason or the caller's address and agent; and a counter to page on.
      const warnings = own.logs.slice(before).filter((l) => (l.level as number) >= 40);
      expect(warnings).toHaveLength(1);
      const [alert] = warnings;
      expect(alert).toMatchObject({
        level: 40,
        msg: 'contact reveal limit reached',
        alert: 'contact-reveal-limit',
        limit: 'per-user',
        userId: expect.any(Number),
        userType: 2,
      });
      // Only the line's own fields: pid, time and request id are process noise and may hold any digits.
      const { pid: _pid, time: _time, reqId: _reqId, hostname: _hostname, ...content } = alert!;
      const text = JSON.stringify(content);
      for (const absent of [
        String(anonymousCase.id),
        anonymousCase.number,
        'Klarifikasi',
        '203.0.113.9',
        'UA-marker',
      ]) {
        expect(text).not.toContain(absent);
      }
      expect(Object.keys(alert!).sort()).toEqual(
        ['alert', 'hostname', 'level', 'limit', 'msg', 'pid', 'reqId', 'time', 'userId', 'userType'].sort(),
      );
      expect(await own.app.telemetry.registry.metrics()).toContain(
        'wbs_contact_reveal_limit_hits_total{user_type="2",limit="per-user"} 1',
      );
      const other = await signIn(own.app, 'holding', demoAccount('holding').password);
      expect((await reveal(other)).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });
});
