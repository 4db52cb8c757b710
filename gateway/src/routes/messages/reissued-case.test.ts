/**
 * A legacy that issues the same case ids again (a restored backup, a reset legacy) in front of a store
 * that remembers the earlier cases: the new reporters and their handlers see nothing of the earlier
 * conversation, identity-access history or clock, on both store engines. The two "lives" are two
 * gateways, each with a fresh legacy-sim, sharing one store (a data folder, or one PostgreSQL database).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import type { ConversationReply, IdentityAccessReply } from '@wbs/shared/api/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, storeTestEnv } from '../../test/databases.ts';
import { browser, buildTestApp, demoLogins, ORIGIN } from '../../test/helpers.ts';
import { guestAnonymousFields, identifiedGuestFields, multipart, pdfBytes } from '../../test/uploads.ts';

const PASSWORD = 'Pipa-Bocor-Gudang-7';

describe.each(ENGINES)('a case id the legacy issues again, on $engine', ({ engine }) => {
  let env: Record<string, string>;
  let cleanUp: () => Promise<void>;
  let evidence: Uint8Array;

  beforeAll(async () => {
    evidence = await pdfBytes();
    if (engine === 'pglite') {
      const dir = mkdtempSync(join(tmpdir(), 'wbs-reissued-'));
      env = { STORE_DATA_DIR: join(dir, 'store') };
      cleanUp = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const store = await storeTestEnv('postgresql');
      env = store.env;
      cleanUp = store.drop;
    }
  }, 120_000);
  afterAll(async () => {
    await cleanUp?.();
  });

  /** One life of the legacy: a gateway and a fresh legacy-sim on the shared store. */
  async function life() {
    const t = await buildTestApp({ ...env, LEGACY_TIMEOUT_MS: '5000' });
    const login = demoLogins(() => t.app);
    const staff = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: browser(await login('admin.kahuripan')),
        ...(payload ? { payload } : {}),
      });
    const tracker = (url: string, caseNumber: string, extra: object = {}) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/tracking${url}`,
        headers: { origin: ORIGIN },
        payload: { caseNumber, password: PASSWORD, ...extra },
      });
    /** Files a guest report (company 1); answers its number and id. */
    const file = async (anonymous: boolean, what: string) => {
      const fields = anonymous ? guestAnonymousFields({ what }) : identifiedGuestFields({ what });
      const body = await multipart(fields, [{ field: 'evidence', name: 'bukti.pdf', bytes: evidence }]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/cases',
        payload: body.payload,
        headers: body.headers,
      });
      expect(res.statusCode, res.body).toBe(201);
      const caseNumber = res.json().caseNumber as string;
      const tracked = await tracker('', caseNumber);
      expect(tracked.statusCode, tracked.body).toBe(200);
      return { caseNumber, id: tracked.json().id as number };
    };
    return { t, staff, tracker, file };
  }

  it('shows the new reporters and their handlers nothing of the earlier cases', async () => {
    // First life: two reports, a conversation on each, the identity opened and a contact revealed.
    const first = await life();
    let earlier: { identified: number; anonymous: number };
    try {
      const identified = await first.file(false, 'Pengadaan meter air digelembungkan');
      const anonymous = await first.file(true, 'Pungutan liar sambungan baru');
      earlier = { identified: identified.id, anonymous: anonymous.id };
      for (const report of [identified, anonymous]) {
        const asked = await first.staff('POST', `/cases/${report.id}/messages`, {
          text: 'Mohon kirim bukti',
        });
        expect(asked.statusCode, asked.body).toBe(201);
        const answered = await first.tracker('/messages', report.caseNumber, {
          text: 'Rahasia pelapor lama',
        });
        expect(answered.statusCode, answered.body).toBe(201);
      }
      expect((await first.staff('GET', `/cases/${identified.id}`)).statusCode).toBe(200);
      const revealed = await first.staff('POST', `/cases/${anonymous.id}/contact-reveal`, {
        reason: 'Perlu menghubungi pelapor untuk klarifikasi bukti',
      });
      expect(revealed.statusCode, revealed.body).toBe(200);
      const history = (await first.tracker('/identity-access', identified.caseNumber)).json();
      expect((history as IdentityAccessReply).entries.length).toBeGreaterThan(0);
    } finally {
      await first.t.close();
    }

    // Second life: a fresh legacy issues the same ids to two new reports.
    const second = await life();
    try {
      const identified = await second.file(false, 'Laporan baru tentang meter');
      const anonymous = await second.file(true, 'Laporan baru tentang pungutan');
      expect({ identified: identified.id, anonymous: anonymous.id }).toEqual(earlier);

      for (const report of [identified, anonymous]) {
        const conversation = (await second.tracker('/conversation', report.caseNumber)).json();
        expect((conversation as ConversationReply).messages).toEqual([]);
        const history = (await second.tracker('/identity-access', report.caseNumber)).json();
        expect((history as IdentityAccessReply).entries).toEqual([]);
        const handlerView = await second.staff('GET', `/cases/${report.id}/messages`);
        expect((handlerView.json() as ConversationReply).messages).toEqual([]);
        // The earlier handler message does not count as this report's acknowledgement.
        const tracked = (await second.tracker('', report.caseNumber)).json();
        expect(tracked.handling?.acknowledgement.doneAt ?? null).toBeNull();
      }
      const list = await second.staff('POST', '/cases/search', {
        from: '2020-01-01',
        to: latestIndonesianToday(),
        page: 1,
        pageSize: 100,
      });
      const rows = (list.json() as { items: { id: number; unreadFromReporter: number | null }[] }).items;
      for (const id of [identified.id, anonymous.id]) {
        expect(rows.find((row) => row.id === id)?.unreadFromReporter).toBe(0);
      }

      // Logged (ids and table, never a complaint number) and counted for an operator.
      const warnings = second.t.logs.filter(
        (l) => l.msg === 'store: rows of another incarnation of this case left out',
      );
      expect(warnings.map((l) => l.table)).toEqual(
        expect.arrayContaining(['case_message', 'identity_access', 'case_clock']),
      );
      const logText = JSON.stringify(second.t.logs);
      for (const report of [identified, anonymous]) expect(logText).not.toContain(report.caseNumber);
      const metrics = await second.t.app.telemetry.registry.metrics();
      expect(metrics).toMatch(/wbs_store_case_binding_mismatches_total\{table="case_message"\} [1-9]/);

      // The new conversation is the new case's own.
      await second.staff('POST', `/cases/${identified.id}/messages`, {
        text: 'Terima kasih atas laporannya',
      });
      const fresh = (
        await second.tracker('/conversation', identified.caseNumber)
      ).json() as ConversationReply;
      expect(fresh.messages.map((m) => m.text)).toEqual(['Terima kasih atas laporannya']);
    } finally {
      await second.t.close();
    }
  }, 120_000);
});
