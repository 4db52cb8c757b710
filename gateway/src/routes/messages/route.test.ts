/**
 * Pesan and the identity-access history through the real app, against both store engines: the
 * machine's PostgreSQL (a database of its own per run) and the embedded default (PGlite in memory).
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import type { ConversationReply, IdentityAccessReply, PostMessageReply } from '@wbs/shared/api/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, storeTestEnv } from '../../test/databases.ts';
import { browser, buildTestApp, demoAccount, demoLogins, ORIGIN, type TestApp } from '../../test/helpers.ts';

const FLOOR_MS = 120;
const [, investigasi, ditutup] = demoCases;
const TEAM = 'Tim Penanganan WBS';
/** Every demo case, whenever the seed filed it. */
const ALL_DATES = { from: '2020-01-01', to: latestIndonesianToday() };

describe.each(ENGINES)('messages and identity access on $engine', ({ engine }) => {
  let t: TestApp;
  let storeEnv: Awaited<ReturnType<typeof storeTestEnv>> | undefined;

  beforeAll(async () => {
    const env: Record<string, string> = {
      TRACKING_FAILURE_FLOOR_MS: String(FLOOR_MS),
      TRACKING_MAX_PER_NUMBER: '200',
      TRACKING_MAX_PER_CLIENT: '1000',
      RATE_LIMIT_NAMESPACE: `test-messages-${randomUUID()}`,
      // This shared 2-core machine can be slow; these tests are not about legacy timeouts.
      LEGACY_TIMEOUT_MS: '5000',
    };
    storeEnv = await storeTestEnv(engine);
    t = await buildTestApp({ ...env, ...storeEnv.env });
    // Opened on first use in memory: open it here, outside any test's time budget.
    await t.app.store.open();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await storeEnv?.drop();
  });

  const login = demoLogins(() => t.app);
  const staff = async (
    username: string,
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    headers = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...browser(await login(username)), ...headers },
      ...(payload ? { payload } : {}),
    });
  /** The case list's unread marks as `username` sees them: case id → count, for rows with any. */
  const marksOf = async (username: string, companyId?: number) => {
    const res = await staff(username, 'POST', '/cases/search', {
      ...ALL_DATES,
      page: 1,
      pageSize: 100,
      ...(companyId ? { companyId } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    const items = (res.json() as { items: { id: number; unreadFromReporter: number | null }[] }).items;
    return Object.fromEntries(
      items.filter((i) => i.unreadFromReporter).map((i) => [i.id, i.unreadFromReporter]),
    );
  };
  const tracker = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/tracking/${url}`,
      headers: { origin: ORIGIN, ...headers },
      payload,
      remoteAddress: '198.51.100.23',
    });
  const proof = { caseNumber: investigasi.caseNumber, password: investigasi.password };

  it('a handler asks, the tracker reads it as the team, answers once under retry, and the handler sees it unread', async () => {
    const asked = await staff('admin.kahuripan', 'POST', '/cases/2/messages', {
      text: '  Mohon kirimkan salinan faktur ganda.  ',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const afterAsk = asked.json() as PostMessageReply;
    expect(afterAsk.messages.at(-1)).toMatchObject({
      id: afterAsk.postedId,
      from: 'handler',
      text: 'Mohon kirimkan salinan faktur ganda.',
      authorRole: 'Admin Perusahaan',
      isNew: false,
    });
    expect(afterAsk.messages.at(-1)?.authorLabel).not.toBe(TEAM);

    // The tracker (number + password in the body) sees the reply as new, from the team only.
    const first = await tracker('conversation', proof);
    expect(first.statusCode, first.body).toBe(200);
    const seen = first.json() as ConversationReply;
    expect(seen.messages).toHaveLength(1);
    expect(seen.messages[0]).toMatchObject({
      from: 'handler',
      authorLabel: TEAM,
      authorRole: null,
      isNew: true,
    });
    expect(first.body).not.toContain(afterAsk.messages[0]?.authorLabel ?? '?');
    // Seen once: no longer new on the next visit.
    const again = (await tracker('conversation', proof)).json() as ConversationReply;
    expect(again.messages[0]?.isNew).toBe(false);

    // The answer, sent three times (a retry after a dropped connection), is stored once.
    const key = { 'idempotency-key': `answer-${randomUUID()}` };
    const answers = await Promise.all(
      [1, 2, 3].map(() => tracker('messages', { ...proof, text: 'Faktur ada di gudang pusat.' }, key)),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    const ids = new Set(answers.map((res) => (res.json() as PostMessageReply).postedId));
    expect(ids.size).toBe(1);
    const reused = await tracker('messages', { ...proof, text: 'Isi yang lain' }, key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().detail).toMatch(/Isi pesan berbeda/);

    // The case list marks case 2 for the handlers of company 1, not for another company.
    expect(await marksOf('admin.kahuripan')).toEqual({ 2: 1 });
    expect(await marksOf('admin.pakuan')).toEqual({});
    expect(await marksOf('holding', 1)).toEqual({ 2: 1 });
    // An analyst sees a mark only where its list shows the case: its own case line (Jalur Direksi is
    // line 1, Jalur SPI line 3); a case of another line is neither listed nor marked.
    const listed = await staff('admin.kahuripan', 'POST', '/cases/search', {
      ...ALL_DATES,
      page: 1,
      pageSize: 100,
    });
    const line = (listed.json() as { items: { id: number; caseLineId: number | null }[] }).items.find(
      (i) => i.id === 2,
    )?.caseLineId;
    expect(line).toBeTypeOf('number');
    expect(await marksOf('analis.direksi')).toEqual(line === 1 ? { 2: 1 } : {});
    expect(await marksOf('analis.spi')).toEqual(line === 3 ? { 2: 1 } : {});

    // A reader who may not answer (type 5 without the role) leaves the mark in place.
    const readOnly = await staff('staff.holding2', 'GET', '/cases/2/messages');
    expect(readOnly.statusCode, readOnly.body).toBe(200);
    expect(await marksOf('admin.kahuripan')).toEqual({ 2: 1 });

    // The handler reads: the answer is new to it, then the mark is gone.
    const read = (await staff('admin.kahuripan', 'GET', '/cases/2/messages')).json() as ConversationReply;
    expect(read.messages.map((m) => [m.from, m.authorLabel, m.isNew])).toEqual([
      ['handler', afterAsk.messages[0]?.authorLabel, false],
      ['reporter', 'Pelapor', true],
    ]);
    expect(await marksOf('admin.kahuripan')).toEqual({});
  });

  it('keeps other companies, read-only staff and signed-out callers out', async () => {
    expect((await staff('admin.pakuan', 'GET', '/cases/2/messages')).statusCode).toBe(404);
    expect((await staff('admin.pakuan', 'POST', '/cases/2/messages', { text: 'x' })).statusCode).toBe(404);
    expect((await staff('admin.kahuripan', 'GET', '/cases/3/messages')).statusCode).toBe(404);
    // Type 4 without the privileged role may not write (no activity logs either).
    expect((await staff('analis.spi', 'POST', '/cases/2/messages', { text: 'x' })).statusCode).toBe(403);
    // Type 1 manages master data only.
    expect((await staff('admin', 'GET', '/cases/2/messages')).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/cases/2/messages' });
    expect(anonymous.statusCode).toBe(401);
    expect(t.logs.some((l) => l.event === 'scope-denied' && l.resourceId === 2)).toBe(true);
  });

  it('refuses empty, over-long and malformed input with Indonesian field messages', async () => {
    const empty = await staff('admin.kahuripan', 'POST', '/cases/2/messages', { text: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ text: 'Pesan wajib diisi' });
    const long = await tracker('messages', { ...proof, text: 'a'.repeat(4001) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual({ text: 'Pesan tidak boleh melebihi 4000 karakter' });
    const badKey = await staff(
      'admin.kahuripan',
      'POST',
      '/cases/2/messages',
      { text: 'ok' },
      { 'idempotency-key': 'x' },
    );
    expect(badKey.statusCode).toBe(400);
    const noNumber = await tracker('conversation', { password: 'x' });
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().errors.caseNumber).toBe('Nomor Pengaduan wajib diisi');
  });

  it('answers a wrong password and an unknown number alike, after the floor, and logs neither', async () => {
    const timed = async (payload: object) => {
      const started = performance.now();
      const res = await tracker('messages', { ...payload, text: 'tebakan' });
      return { res, ms: performance.now() - started };
    };
    const wrong = await timed({ caseNumber: ditutup.caseNumber, password: 'Salah#2026!' });
    const unknown = await timed({ caseNumber: 'WBS-99999999', password: 'Salah#2026!' });
    for (const { res, ms } of [wrong, unknown]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Nomor Pengaduan atau kata sandi tidak sesuai');
      expect(ms).toBeGreaterThanOrEqual(FLOOR_MS - 5);
    }
    expect(wrong.res.body).toBe(unknown.res.body);
    const text = JSON.stringify(t.logs);
    for (const secret of [
      ditutup.caseNumber,
      'WBS-99999999',
      'Salah#2026!',
      investigasi.password,
      '198.51.100.23',
    ]) {
      expect(text).not.toContain(secret);
    }
    // Nothing was stored for the failed attempts.
    const closed = await staff('admin.pakuan', 'GET', '/cases/3/messages');
    expect((closed.json() as ConversationReply).messages).toEqual([]);
  });

  it('limits tracker message calls per complaint number (429 with Retry-After)', async () => {
    const limited = await buildTestApp({
      TRACKING_FAILURE_FLOOR_MS: '0',
      TRACKING_MAX_PER_NUMBER: '2',
      LEGACY_TIMEOUT_MS: '5000',
      RATE_LIMIT_NAMESPACE: `test-messages-limit-${randomUUID()}`,
    });
    try {
      const call = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/v1/tracking/conversation',
          headers: { origin: ORIGIN },
          payload: { caseNumber: ditutup.caseNumber, password: 'Salah#1' },
        });
      expect((await call()).statusCode).toBe(404);
      expect((await call()).statusCode).toBe(404);
      const refused = await call();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().detail).toMatch(/Terlalu banyak percobaan/);
    } finally {
      await limited.close();
    }
  }, 60_000);

  it('the signed-in reporter talks on its own identified case and reads who opened its identity', async () => {
    const own = await staff('pelapor', 'POST', '/cases/search', {
      from: '2020-01-01',
      to: latestIndonesianToday(),
      pageSize: 100,
    });
    expect(own.statusCode, own.body).toBe(200);
    let caseId: number | undefined;
    for (const item of own.json().items as { id: number }[]) {
      const detail = await staff('pelapor', 'GET', `/cases/${item.id}`);
      if (detail.json().reporter?.anonymous === false) {
        caseId = item.id;
        break;
      }
    }
    if (!caseId) throw new Error('the pelapor has no identified case in the seed');

    const before = (
      await staff('pelapor', 'GET', `/cases/${caseId}/identity-access`)
    ).json() as IdentityAccessReply;
    expect(before.identified).toBe(true);
    // Two handlers open the detail (identity fields shown); the reporter reading its own case is no access.
    expect((await staff('admin.kahuripan', 'GET', `/cases/${caseId}`)).statusCode).toBe(200);
    expect((await staff('pelapor', 'GET', `/cases/${caseId}`)).statusCode).toBe(200);
    expect((await staff('holding', 'GET', `/cases/${caseId}`)).statusCode).toBe(200);
    const history = await staff('pelapor', 'GET', `/cases/${caseId}/identity-access`);
    expect(history.statusCode, history.body).toBe(200);
    const reply = history.json() as IdentityAccessReply;
    expect(reply.entries.slice(0, 2).map((e) => [e.role, e.kind])).toEqual([
      ['Partner', 'case-read'],
      ['Admin Perusahaan', 'case-read'],
    ]);
    expect(reply.entries).toHaveLength(before.entries.length + 2);
    for (const account of ['admin.kahuripan', 'holding']) {
      expect(history.body).not.toContain(demoAccount(account).username);
    }
    // Another reporter's case, and staff asking, are refused.
    expect((await staff('pelapor', 'GET', '/cases/2/identity-access')).statusCode).toBe(404);
    expect((await staff('admin.kahuripan', 'GET', `/cases/${caseId}/identity-access`)).statusCode).toBe(403);

    // The reporter writes; handlers appear to it as the team.
    await staff('admin.kahuripan', 'POST', `/cases/${caseId}/messages`, {
      text: 'Apakah Anda bersedia bersaksi?',
    });
    const asked = (await staff('pelapor', 'GET', `/cases/${caseId}/messages`)).json() as ConversationReply;
    expect(asked.messages.at(-1)).toMatchObject({ authorLabel: TEAM, authorRole: null, isNew: true });
    const answered = await staff('pelapor', 'POST', `/cases/${caseId}/messages`, { text: 'Bersedia.' });
    expect(answered.statusCode, answered.body).toBe(201);
    expect((answered.json() as PostMessageReply).messages.at(-1)).toMatchObject({
      from: 'reporter',
      isNew: false,
    });
    expect(await marksOf('admin.kahuripan')).toMatchObject({ [caseId]: 1 });
  });

  it('an anonymous report has no identity history, only the reveals of its masked contact', async () => {
    expect((await staff('admin.kahuripan', 'GET', '/cases/2')).statusCode).toBe(200);
    const res = await tracker('identity-access', proof);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ identified: false, entries: [] });

    const revealed = await staff('admin.kahuripan', 'POST', '/cases/2/contact-reveal', {
      reason: 'Perlu menghubungi pelapor untuk klarifikasi bukti',
    });
    expect(revealed.statusCode, revealed.body).toBe(200);
    const after = (await tracker('identity-access', proof)).json() as {
      identified: boolean;
      entries: { kind: string }[];
    };
    expect(after.identified).toBe(false);
    expect(after.entries.map((entry) => entry.kind)).toEqual(['contact-reveal']);
  });

  it('reports the store in readiness', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode, res.body).toBe(200);
  });
});
