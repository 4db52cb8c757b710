/**
 * Message floods: per client, per case and side, and for everyone. A reporter holding a case's
 * password and many addresses meets the per-case limit, and never uses up the handlers' side.
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, buildTestApp, demoLogins, ORIGIN, type TestApp } from '../../test/helpers.ts';

const [, investigasi] = demoCases;
const PER_CASE_SIDE = 3;
const PER_CLIENT = 5;

describe('message flood limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      MESSAGES_MAX_PER_CLIENT: String(PER_CLIENT),
      MESSAGES_MAX_PER_CASE_SIDE: String(PER_CASE_SIDE),
      TRACKING_MAX_PER_NUMBER: '200',
      TRACKING_MAX_PER_CLIENT: '1000',
      TRACKING_FAILURE_FLOOR_MS: '50',
      RATE_LIMIT_NAMESPACE: `test-message-flood-${randomUUID()}`,
    });
    await t.app.store.open();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const login = demoLogins(() => t.app);
  const staff = async (username: string, url: string, payload: object, headers = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: { ...browser(await login(username)), ...headers },
      payload,
    });
  const tracker = (text: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking/messages',
      headers: { origin: ORIGIN, ...headers },
      payload: { caseNumber: investigasi.caseNumber, password: investigasi.password, text },
      remoteAddress,
    });
  const conversationLength = async () =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/tracking/conversation',
        headers: { origin: ORIGIN },
        payload: { caseNumber: investigasi.caseNumber, password: investigasi.password },
        remoteAddress: '198.51.100.200',
      })
    ).json().messages.length as number;

  it('stops a tracker flooding one case from rotating addresses; the handlers still answer', async () => {
    const before = await conversationLength();
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof tracker>> | undefined;
    // The first message, then its retry from the same address with the same Idempotency-Key (not
    // counted again), then new messages each from another address.
    const key = { 'idempotency-key': 'banjir-pesan-0000' };
    statuses.push((await tracker('pesan 0', '198.51.100.1', key)).statusCode);
    statuses.push((await tracker('pesan 0', '198.51.100.1', key)).statusCode);
    for (let i = 1; i <= 6; i++) {
      const res = await tracker(`pesan ${i}`, `198.51.100.${10 + i}`);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused ??= res;
    }
    expect(statuses).toEqual([
      201,
      201,
      ...Array(PER_CASE_SIDE - 1).fill(201),
      ...Array(7 - PER_CASE_SIDE).fill(429),
    ]);
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused?.json()).toMatchObject({
      type: expect.stringContaining('rate-limited'),
      detail: expect.stringMatching(
        /^Terlalu banyak pengiriman dalam waktu singkat, silakan coba lagi dalam \d+ menit$/,
      ),
    });
    // The first message and its retry are one message; nothing refused was stored.
    expect(await conversationLength()).toBe(before + PER_CASE_SIDE);
    // The other side of the same case is not used up.
    const answer = await staff('admin.kahuripan', '/cases/2/messages', {
      text: 'Kami sudah menerima pesan Anda',
    });
    expect(answer.statusCode, answer.body).toBe(201);
  });

  it('limits one signed-in client across cases, with the same Indonesian message', async () => {
    const list = await staff('admin.kahuripan', '/cases/search', {
      from: '2020-01-01',
      to: latestIndonesianToday(),
      page: 1,
      pageSize: 100,
    });
    const ids = (list.json().items as { id: number }[]).map((item) => item.id).filter((id) => id !== 2);
    expect(ids.length).toBeGreaterThanOrEqual(PER_CLIENT);
    const statuses: number[] = [];
    // A case out of scope is a 404 before anything is counted.
    for (const id of ids.slice(0, PER_CLIENT + 1)) {
      statuses.push((await staff('admin.pakuan', `/cases/${id}/messages`, { text: 'x' })).statusCode);
    }
    expect(statuses.every((s) => s === 404)).toBe(true);
    // The partner (type 3) handles company 1's cases: PER_CLIENT messages, then refused.
    const own: number[] = [];
    for (const id of ids.slice(0, PER_CLIENT + 1)) {
      own.push((await staff('holding', `/cases/${id}/messages`, { text: `pesan ${id}` })).statusCode);
    }
    expect(own).toEqual([...Array(PER_CLIENT).fill(201), 429]);
  });
});
