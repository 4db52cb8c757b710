/**
 * Journey (handlers' notices, docs/product/notifications.md#handlers): a guest files a report; within
 * 60 s the company's admin and the partner each get one "Laporan baru" mail (read from the
 * development mail sink) whose raw message holds no complaint number, report text or anything of the
 * reporter, and the admin's bell counts it and opens the case. A report filed directly at the legacy
 * (another channel) is announced the same way.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { queryTestDatabase } from '../../../gateway/src/test/databases.ts';
import { makePdf } from '../../support/files.ts';
import { type SinkMessage, sinkMessages, waitForMails } from '../../support/mail.ts';
import { fileGuestReport, signIn, useJourney } from './support.ts';

const journey = useJourney('handler-notices');
const sinkUrl = inject('mailSinkUrl');
const storeUrl = inject('storeUrl');
/** legacy-sim's own address (its test knobs, outside /api). */
const simUrl = inject('simUrl').replace(/\/api\/?$/, '');
const ADMIN = 'admin.kahuripan@wbs.example.id';
const PARTNER = 'wbs@holding-airminum.example.id';

const newReportTo = (address: string) => (m: SinkMessage) =>
  m.envelope.to.includes(address) && m.subject.includes('Laporan baru');

/** The watcher's silent first pass over every company is done: what is filed from now on is news. */
async function indexSeeded(): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await queryTestDatabase<{ n: number }>(
      storeUrl,
      'select count(*)::int as n from case_watch where seeded',
    );
    if ((row?.n ?? 0) >= 3) return;
    if (Date.now() > deadline) throw new Error('the case index was never seeded');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe("handlers' notices", () => {
  it('a guest report reaches the admin and the partner by mail within 60 s, content-free, and on the bell', async () => {
    expect(sinkUrl, 'the e2e system runs a mail sink').not.toBe('');
    await indexSeeded();
    const before = {
      admin: (await sinkMessages(sinkUrl)).filter(newReportTo(ADMIN)).length,
      partner: (await sinkMessages(sinkUrl)).filter(newReportTo(PARTNER)).length,
    };
    const token = `gudang-${randomUUID().slice(0, 8)}`;
    const caseNumber = await fileGuestReport({
      password: `Kabar-${Date.now().toString(36)}-Sandi`,
      evidence: makePdf(`bukti-${token}.pdf`, `Bukti ${token}`),
      what: `Dugaan pungutan liar di ${token}.`,
    });
    const admin = await waitForMails(sinkUrl, before.admin + 1, newReportTo(ADMIN), 60_000);
    const partner = await waitForMails(sinkUrl, before.partner + 1, newReportTo(PARTNER), 60_000);
    for (const mail of [admin.at(-1)!, partner.at(-1)!]) {
      for (const secret of [caseNumber, token, 'pelapor.e2e@example.com', '+6281234567890', 'Inisial AB']) {
        expect(mail.raw, `${mail.envelope.to} ${secret}`).not.toContain(secret);
      }
    }
    // One mail each for this report, not one per poll.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect((await sinkMessages(sinkUrl)).filter(newReportTo(ADMIN))).toHaveLength(before.admin + 1);

    const { page } = await journey.actor('company-admin');
    await signIn(page, 'admin.kahuripan', 'Perusahaan#2026!');
    await page.waitForURL('**/admin/dashboard');
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifikasi, \d+ belum dibaca$/ });
    await bell.waitFor();
    // Notices say no more than "Laporan baru": an earlier journey's report may be announced after this
    // one (the watcher sees some reports only at its next poll), so each is opened until this report's.
    const main = page.getByRole('main');
    for (let nth = 0; ; nth++) {
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Notifikasi/ })
        .click();
      const list = page.getByRole('dialog', { name: 'Notifikasi' }).getByRole('list', { name: 'Notifikasi' });
      const reports = list.getByText('Laporan baru');
      expect(nth, 'a "Laporan baru" notice of this report').toBeLessThan(await reports.count());
      await reports.nth(nth).click();
      await page.waitForURL(/\/admin\/case\/\d+/);
      const ours = main.getByRole('heading', { level: 1, name: `Detail Laporan ${caseNumber}` });
      if (
        await ours.waitFor({ timeout: 10_000 }).then(
          () => true,
          () => false,
        )
      )
        break;
    }
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
