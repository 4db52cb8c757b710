/**
 * Deadline notices from the case index: the demo report filed 8 days ago and never touched is late for
 * its acknowledgement (7 days), so each handler of its company gets one "Tanggapan awal terlambat"
 * notice, once however often the scan runs; another company's handlers get none of it.
 */
import type { NoticeListReply } from '@wbs/shared/api/notices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceAccount, type LegacyCaller } from '../legacy/plugin.ts';
import { caseStatusTable } from '../legacy/reference.ts';
import { finalStatusIdsOf } from '../reporter-notices/store.ts';
import { buildTestApp, demoAccount, type TestApp } from '../test/helpers.ts';
import { as } from '../test/sessions.ts';
import { startTestSmtp, testSmtpSettings } from '../test/smtp.ts';
import { deadlineKind, scanDeadlines } from './deadlines.ts';
import { sendDigest } from './mail-jobs.ts';
import { handlerDirectory } from './recipients.ts';

describe('deadline notices', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      LEGACY_SERVICE_USERNAME: 'admin',
      LEGACY_SERVICE_PASSWORD: demoAccount('admin').password,
    });
  }, 60_000);
  afterAll(async () => t?.close());

  it('tells the handlers of a late report once, and no one of another company', async () => {
    const report = await t.app.caseIndex.poll();
    expect(report.seededCompanies).toBeGreaterThanOrEqual(1);
    const withLegacy = <T>(work: (legacy: LegacyCaller) => Promise<T>) =>
      asServiceAccount(t.app, { requestId: 'deadlines-test', log: t.app.log }, work);
    const table = await withLegacy((legacy) => caseStatusTable(legacy));
    const deps = {
      store: await t.app.store.open(),
      withLegacy,
      directory: handlerDirectory(),
      defaults: t.app.config.handlingDeadlines,
      finalStatusIds: finalStatusIdsOf(table),
      log: t.app.log,
    };
    const first = await scanDeadlines(deps);
    expect(first.notices).toBeGreaterThan(0);
    expect((await scanDeadlines(deps)).notices).toBe(0);

    const bell = async (username: string) =>
      (
        (
          await t.app.inject({
            method: 'GET',
            url: '/api/v1/notices',
            headers: { cookie: await as(t, username) },
          })
        ).json() as NoticeListReply
      ).items.filter((i) => i.kind === 'ack-overdue');
    const kahuripan = await bell('admin.kahuripan');
    expect(kahuripan.length).toBeGreaterThanOrEqual(1);
    expect(kahuripan.every((i) => i.companyId === 1)).toBe(true);
    expect((await bell('admin.pakuan')).filter((i) => i.companyId === 1)).toEqual([]);

    // The morning digest names the late report's company to its handlers (the default for these).
    const smtp = await startTestSmtp();
    try {
      const { mailer } = await import('../mail/transport.ts');
      const userId = (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/session',
          headers: { cookie: await as(t, 'admin.kahuripan') },
        })
      ).json().user.id as number;
      const sent = await sendDigest(
        {
          store: deps.store,
          mailer: mailer({ smtp: testSmtpSettings(smtp.port), from: t.app.config.mail.from }, t.app.log),
          from: t.app.config.mail.from,
          publicUrl: t.app.config.publicUrl,
          secret: t.app.config.sessionSecret,
          log: t.app.log,
        },
        userId,
        '2026-11-26',
        new Date(),
      );
      expect(sent).toBe(true);
      const [digest] = smtp.received;
      expect(digest?.parsed.text).toContain('Tanggapan awal terlambat');
      expect(digest?.parsed.text).toContain(kahuripan[0]?.companyName ?? '?');
    } finally {
      await smtp.close();
    }
  });

  it('names the notice a clock calls for: due today or late for acknowledgement, within 7 days or late for feedback', () => {
    const clock = (stage: 'acknowledgement' | 'feedback' | 'done', state: string, dueDate: string) =>
      ({
        stage,
        acknowledgement: { dueDate, doneAt: null, state },
        feedback: { dueDate, doneAt: null, state },
      }) as Parameters<typeof deadlineKind>[0];
    const today = '2026-11-26';
    expect(deadlineKind(clock('acknowledgement', 'overdue', '2026-11-20'), today)).toBe('ack-overdue');
    expect(deadlineKind(clock('acknowledgement', 'dueSoon', '2026-11-26'), today)).toBe('ack-due');
    expect(deadlineKind(clock('acknowledgement', 'dueSoon', '2026-11-27'), today)).toBeNull();
    expect(deadlineKind(clock('feedback', 'overdue', '2026-11-01'), today)).toBe('feedback-overdue');
    expect(deadlineKind(clock('feedback', 'dueSoon', '2026-12-03'), today)).toBe('feedback-due');
    expect(deadlineKind(clock('feedback', 'onTime', '2026-12-04'), today)).toBeNull();
    expect(deadlineKind(clock('done', 'met', '2026-11-01'), today)).toBeNull();
  });
});
