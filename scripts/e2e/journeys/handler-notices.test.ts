/**
 * Journey (handlers' notices, docs/product/notifications.md#handlers): a guest files a report; within
 * 60 s the company's admin has its "Laporan baru" notice with the mail sent, and the admin and the
 * partner each get a "Laporan baru" mail (read from the development mail sink) whose raw message holds
 * no complaint number, report text or anything of the reporter; no more mails than notices; the
 * admin's bell counts it and opens the case. A report filed directly at the legacy (another channel)
 * is announced the same way.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { queryTestDatabase } from '../../../gateway/src/test/databases.ts';
import { until } from '../../../gateway/src/test/until.ts';
import { makePdf } from '../../support/files.ts';
import { type SinkMessage, sinkMessages, waitForMails } from '../../support/mail.ts';
import { apiGet, apiSignIn, fileGuestReport, findCase, signIn, useJourney } from './support.ts';

const journey = useJourney('handler-notices');
const sinkUrl = inject('mailSinkUrl');
const storeUrl = inject('storeUrl');
/** legacy-sim's own address (its test knobs, outside /api). */
const simUrl = inject('simUrl').replace(/\/api\/?$/, '');
const ADMIN = 'admin.kahuripan@wbs.example.id';
const PARTNER = 'wbs@holding-airminum.example.id';

const newReportTo = (address: string) => (m: SinkMessage) =>
  m.envelope.to.includes(address) && m.subject.includes('Laporan baru');

/** The first row of a statement on the gateway's store. */
const firstRow = async <T extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await queryTestDatabase<T>(storeUrl, text, values))[0];

/** The watcher's silent first pass over every company is done: what is filed from now on is news. */
const indexSeeded = () =>
  until(
    async () =>
      ((await firstRow<{ n: number }>('select count(*)::int as n from case_watch where seeded'))?.n ?? 0) >=
      3,
    60_000,
  );

/** Every notice of `userId` up to `last` that asked for an immediate mail has had it. */
const noEarlierMailPending = (userId: number, last: number) =>
  until(
    async () =>
      (
        await firstRow<{ n: number }>(
          "select count(*)::int as n from notice where user_id = $1 and id <= $2 and mail = 'immediate'",
          [userId, last],
        )
      )?.n === 0,
    60_000,
  );

/** The id of the "Laporan baru" notice of `caseId` to `userId` once its mail is sent, within `ms`. */
async function sentNoticeOf(userId: number, caseId: number, ms: number): Promise<number> {
  let row: { id: number; mail: string } | undefined;
  const sent = async () => {
    row = await firstRow<{ id: number; mail: string }>(
      "select id::int, mail from notice where user_id = $1 and kind = 'new-report' and case_id = $2",
      [userId, caseId],
    );
    return row?.mail === 'sent';
  };
  await until(sent, ms).catch(() => {
    throw new Error(
      `case ${caseId}: ${row ? `notice ${row.id}, mail ${row.mail}` : 'no notice'} after ${ms} ms`,
    );
  });
  return row!.id;
}

describe("handlers' notices", () => {
  it('a guest report reaches the admin and the partner by mail within 60 s, content-free, and on the bell', async () => {
    expect(sinkUrl, 'the e2e system runs a mail sink').not.toBe('');
    await indexSeeded();
    const admin = await apiSignIn('admin.kahuripan', 'Perusahaan#2026!');
    const { user } = await apiGet<{ user: { id: number } }>('/session', admin);
    // Earlier journeys' reports may still be announced while this one is filed, and a mail may
    // gather several notices: so this report is followed by its own notice, and the mails are
    // counted from a moment when every earlier notice of the admin had had its mail.
    const last =
      (
        await firstRow<{ last: number }>(
          'select coalesce(max(id), 0)::int as last from notice where user_id = $1',
          [user.id],
        )
      )?.last ?? 0;
    await noEarlierMailPending(user.id, last);
    const before = {
      admin: (await sinkMessages(sinkUrl)).filter(newReportTo(ADMIN)).length,
      partner: (await sinkMessages(sinkUrl)).filter(newReportTo(PARTNER)).length,
    };
    const token = `gudang-${randomUUID().slice(0, 8)}`;
    const filedAt = Date.now();
    const caseNumber = await fileGuestReport({
      password: `Kabar-${Date.now().toString(36)}-Sandi`,
      evidence: makePdf(`bukti-${token}.pdf`, `Bukti ${token}`),
      what: `Dugaan pungutan liar di ${token}.`,
    });
    const { id: caseId } = await findCase(admin, caseNumber);

    // This report's notice to the admin, its mail sent, within 60 s of filing.
    const notice = await sentNoticeOf(user.id, caseId, filedAt + 60_000 - Date.now());
    const admins = await waitForMails(sinkUrl, before.admin + 1, newReportTo(ADMIN), 5_000);
    const partners = await waitForMails(
      sinkUrl,
      before.partner + 1,
      newReportTo(PARTNER),
      Math.max(5_000, filedAt + 60_000 - Date.now()),
    );
    for (const mail of [...admins.slice(before.admin), ...partners.slice(before.partner)]) {
      for (const secret of [caseNumber, token, 'pelapor.e2e@example.com', '+6281234567890', 'Inisial AB']) {
        expect(mail.raw, `${mail.envelope.to} ${secret}`).not.toContain(secret);
      }
    }
    // One mail per notice at the most (several may share one), not one per poll.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const mailed = (await sinkMessages(sinkUrl)).filter(newReportTo(ADMIN)).length - before.admin;
    const notices =
      (
        await firstRow<{ notices: number }>(
          "select count(*)::int as notices from notice where user_id = $1 and id > $2 and kind = 'new-report'",
          [user.id, last],
        )
      )?.notices ?? 0;
    expect(mailed).toBeGreaterThanOrEqual(1);
    expect(mailed).toBeLessThanOrEqual(notices);

    const { page } = await journey.actor('company-admin');
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');
    await page.waitForURL('**/admin/dashboard');
    const dashboard = page.url();
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifikasi/ });
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Notifikasi, \d+ belum dibaca$/ })
      .waitFor();
    // Notices say no more than "Laporan baru": the bell's row of this one is where the list (newest
    // first) has it. A notice that comes in between moves it down; the bell is then read again.
    for (let attempt = 1; ; attempt++) {
      const { items } = await apiGet<{ items: { id: number }[] }>('/notices', admin);
      const position = items.findIndex((item) => item.id === notice);
      expect(position, "this report's notice on the bell's first page").toBeGreaterThanOrEqual(0);
      // From the dashboard each time: a case page left by the try before would answer the URL wait.
      await page.goto(dashboard);
      await bell.click();
      const row = page
        .getByRole('dialog', { name: 'Notifikasi' })
        .getByRole('list', { name: 'Notifikasi' })
        .getByRole('listitem')
        .nth(position);
      await row.getByText('Laporan baru').waitFor();
      await row.getByRole('button').click();
      const opened = await page.waitForURL(/\/admin\/case\/\d+$/).then(() => page.url());
      if (opened.endsWith(`/admin/case/${caseId}`)) break;
      expect(attempt, `the bell opened ${opened}, not case ${caseId}`).toBeLessThan(3);
    }
    await page
      .getByRole('main')
      .getByRole('heading', { level: 1, name: `Detail Laporan ${caseNumber}` })
      .waitFor();
  });

  it('a report entered at the legacy directly (another channel) is announced to its own company only', async () => {
    await indexSeeded();
    const pakuan = 'admin.pakuan@wbs.example.id';
    const before = {
      pakuan: (await sinkMessages(sinkUrl)).filter(newReportTo(pakuan)).length,
      kahuripan: (await sinkMessages(sinkUrl)).filter(newReportTo(ADMIN)).length,
    };
    const added = await fetch(`${simUrl}/__sim/cases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1, companyId: 2, maxAgeDays: 1, seed: Date.now() % 100_000 }),
    });
    expect(added.status).toBe(200);
    await waitForMails(sinkUrl, before.pakuan + 1, newReportTo(pakuan), 60_000);
    expect((await sinkMessages(sinkUrl)).filter(newReportTo(ADMIN))).toHaveLength(before.kahuripan);
  });
});
