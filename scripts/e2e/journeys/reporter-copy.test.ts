/**
 * Journey (the reporter's copy, docs/product/following-a-report.md#the-reporters-copy): a handler
 * answers in Pesan of the seeded report with logs (WBS-10000002); its tracker, on a phone, writes a
 * message, then presses "Unduh salinan laporan saya". The download is a PDF named by the day only
 * (`salinan-laporan-YYYYMMDD.pdf`, no complaint number) whose text holds the report's answers, the
 * attachments' names, the masked activity log and both messages, the handler's as "Tim Penanganan
 * WBS": never the handler's name, a log's author or a log's note. A signed-in pelapor gets the same
 * button on the case view of a report of their own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoCases } from '../../legacy-sim/src/seed/demo-accounts.ts';
import { readPdf } from '../../support/files.ts';
import {
  apiGet,
  apiSignIn,
  baseUrl,
  findCase,
  jakartaDay,
  PHONE,
  signIn,
  snackbar,
  trackCase,
  useJourney,
} from './support.ts';

const journey = useJourney('reporter-copy');
const demo = demoCases[1];
const stamp = Date.now().toString(36);
const REPLY = `Terima kasih, laporan Anda sedang kami periksa 👍 (${stamp}).`;
const ANSWER = `Saya siap memberi keterangan tambahan (${stamp}).`;

type StaffDetail = {
  companyName: string | null;
  report: Record<string, string | boolean | null>;
  attachments: { name: string }[];
  logs: { message: string; createdBy: string | null; statusName: string | null }[];
};

/** The PDF's text without any spacing: its lines break where the layout wrapped them. */
const squeezed = (text: string) => text.replace(/[\s\u200b]+/g, '');

describe("the reporter's copy", () => {
  it('holds the report, the masked log and both messages, never a handler name; the file name is neutral', async () => {
    // A handler answers in Pesan (set-up through the API, as the staff view would): the holding's
    // Supervisor, whose name is a person's, not the company's (which the copy shows as Perusahaan).
    const session = await apiSignIn('staff.holding', 'Staff#2026!');
    const { user } = await apiGet<{ user: { displayName: string } }>('/session', session);
    // The report as its company's admin reads it (the list needs no company choice there).
    const admin = await apiSignIn('admin.kahuripan', 'Perusahaan#2026!');
    const found = await findCase(admin, demo.caseNumber);
    const staff = await apiGet<StaffDetail>(`/cases/${found.id}`, admin);
    const posted = await fetch(`${baseUrl}/api/v1/cases/${found.id}/messages`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        origin: new URL(baseUrl).origin,
        cookie: session.cookie,
      },
      body: JSON.stringify({ text: REPLY }),
    });
    expect(posted.status, await posted.clone().text()).toBe(201);
    expect(user.displayName).not.toBe(staff.companyName);
    // The seed's log author is the company's admin account, named as its company: that name is in the
    // copy as Perusahaan, so only other authors can be looked for (the unit tests cover any author).
    const authors = staff.logs.map((log) => log.createdBy).filter((name): name is string => Boolean(name));
    expect(authors.length, 'the seeded case has logs with authors').toBeGreaterThan(0);
    const otherAuthors = authors.filter((name) => name !== staff.companyName);

    // The tracker, on a phone, reads the reply and answers.
    const tracker = await journey.actor('tracker', PHONE);
    const { page } = tracker;
    const main = await trackCase(page, demo.caseNumber, demo.password);
    await main.getByRole('tab', { name: 'Pesan' }).click();
    await main.getByTestId('message').filter({ hasText: REPLY }).waitFor();
    await main.getByLabel('Tulis pesan').fill(ANSWER);
    await main.getByRole('button', { name: 'Kirim Pesan' }).click();
    await snackbar(page, 'Pesan berhasil dikirim').waitFor();
    await main.getByTestId('message').filter({ hasText: ANSWER }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Unduh salinan laporan saya' }).click(),
    ]);
    const name = download.suggestedFilename();
    expect(name).toMatch(/^salinan-laporan-\d{8}\.pdf$/);
    expect(name).not.toContain(demo.caseNumber.slice(4));

    const pdf = readPdf(readFileSync(await download.path()));
    expect(pdf.isPdf).toBe(true);
    for (const box of pdf.mediaBoxes) expect(box).toEqual([0, 0, 595.28, 841.89]);
    const text = squeezed(pdf.text);

    // The report as the view shows it.
    expect(text).toContain(squeezed(demo.caseNumber));
    expect(text).toContain(squeezed('Salinan Laporan Saya'));
    for (const answer of Object.values(staff.report)) {
      if (typeof answer === 'string' && answer !== '') expect(text, answer).toContain(squeezed(answer));
    }
    for (const attachment of staff.attachments) expect(text).toContain(squeezed(attachment.name));
    // The log: its statuses and dates, every note masked, no author.
    for (const log of staff.logs) {
      if (log.statusName) expect(text).toContain(squeezed(log.statusName));
      expect(text).not.toContain(squeezed(log.message));
    }
    expect(text).toContain('**********');
    for (const author of otherAuthors) expect(text).not.toContain(squeezed(author));
    // Pesan: both messages (the emoji the font lacks written as its code point), the handler unnamed.
    expect(text).toContain(squeezed(ANSWER));
    expect(text).toContain(squeezed(REPLY.replace('👍', '[U+1F44D]')));
    expect(text).toContain(squeezed('Tim Penanganan WBS'));
    expect(text).not.toContain(squeezed(user.displayName));
    tracker.expectClean();
  });

  it('a signed-in pelapor downloads the copy of a report of their own from its case view', async () => {
    // One of the pelapor's own reports (the seed links some of company 1's to the account).
    const session = await apiSignIn('pelapor', 'Pelapor#2026!');
    const search = await fetch(`${baseUrl}/api/v1/cases/search`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: new URL(baseUrl).origin,
        cookie: session.cookie,
      },
      body: JSON.stringify({ from: jakartaDay(366), to: jakartaDay(0), page: 1, pageSize: 10 }),
    });
    expect(search.status).toBe(200);
    const [own] = ((await search.json()) as { items: { id: number; number: string }[] }).items;
    expect(own, 'the seed links reports to the pelapor').toBeDefined();

    const reporter = await journey.actor('pelapor');
    const { page } = reporter;
    await signIn(page, 'pelapor', 'Pelapor#2026!');
    await page.goto(`${baseUrl}/admin/case/${own!.id}`);
    const main = page.getByRole('main');
    await main.getByText(own!.number).first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Unduh salinan laporan saya' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^salinan-laporan-\d{8}\.pdf$/);
    const pdf = readPdf(readFileSync(await download.path()));
    expect(pdf.isPdf).toBe(true);
    const text = squeezed(pdf.text);
    expect(text).toContain(squeezed(own!.number));
    expect(text).toContain(squeezed('Salinan Laporan Saya'));
    reporter.expectClean();
  });
});
