import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { wibToday } from '../../../shared/src/handling-clock.ts';
import { makePdf, makePng } from '../../support/files.ts';
import { startOwnSystem } from './own-system.ts';
import { apiSignIn, PHONE, signIn, snackbar, trackCase, useJourney } from './support.ts';
import { fillCasePassword, fillGuestWizardToEvidence, saveReport, shownCaseNumber } from './wizard.ts';

const journey = useJourney('talk-with-reporter');
const TEAM = 'Tim Penanganan WBS';

type Engine = { engine: 'pglite' | 'postgresql' };

/** A second system with the gateway on the embedded store (in memory), like `pnpm start`'s default. */
const startEmbeddedSystem = () =>
  startOwnSystem({ name: 'pglite', env: { TRACKING_MAX_PER_NUMBER: '30', TRACKING_MAX_PER_CLIENT: '300' } });

/** Signs in through the API of `base` (second factor included) and returns the session cookie. */
async function apiCookie(base: string, username: string, password: string): Promise<string> {
  return (await apiSignIn(username, password, base)).cookie;
}

/** The handler's name and role as the session shows them (what staff see on its messages). */
async function whoIs(base: string, username: string, password: string) {
  const cookie = await apiCookie(base, username, password);
  const reply = await fetch(`${base}/api/v1/session`, { headers: { cookie, accept: 'application/json' } });
  const { user } = (await reply.json()) as { user: { displayName: string; userTypeName: string } };
  return user;
}

describe.each<Engine>([{ engine: 'pglite' }, { engine: 'postgresql' }])(
  'talk with the reporter on $engine',
  ({ engine }) => {
    let base = '';
    let stop: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      if (engine === 'postgresql') {
        base = inject('baseUrl').replace(/\/$/, '');
        return;
      }
      const system = await startEmbeddedSystem();
      base = system.url;
      stop = system.stop;
    }, 120_000);
    afterAll(async () => {
      await stop?.();
    }, 60_000);

    const stamp = `${engine}-${Date.now().toString(36)}`;
    const EVIDENCE = makePdf(`bukti-${stamp}.pdf`, `Bukti ${stamp}`);
    const ADDED = makePng(`foto-tambahan-${stamp}.png`);
    const CASE_PASSWORD = `Pipa-Bocor-${stamp}`;
    const QUESTION = `Kapan tepatnya faktur ganda itu dibuat? (${stamp})`;
    const ANSWER = `Pada awal bulan, saya lampirkan fotonya. (${stamp})`;
    let caseNumber = '';
    let caseId = 0;

    it('guest files, handler asks, the tracker on a phone sees it marked, answers and adds a file', async () => {
      // 1. An anonymous guest files a report.
      const guest = await journey.actor('guest', { baseUrl: base });
      await fillGuestWizardToEvidence(guest.page);
      const wizard = guest.page.getByRole('main');
      await wizard.getByLabel('Bukti Pendukung', { exact: true }).setInputFiles(EVIDENCE);
      await fillCasePassword(guest.page, CASE_PASSWORD);
      await saveReport(guest.page);
      caseNumber = await shownCaseNumber(guest.page);
      expect(caseNumber).toMatch(/^WBS-\d{8}$/);
      guest.expectClean();

      const me = await whoIs(base, 'analis.direksi', 'Analis#2026!');
      const HANDLER_NAME = me.displayName;
      // 2. A handler of the company opens it, asks a question in Pesan and reveals the masked contact.
      const handler = await journey.actor('handler', { baseUrl: base });
      const { page } = handler;
      const main = page.getByRole('main');
      await signIn(page, 'analis.direksi', 'Analis#2026!');
      await page.goto('/admin/case');
      const table = main.getByRole('table', { name: 'Daftar laporan' });
      await main.getByRole('group', { name: 'Filter laporan' }).getByLabel('Nomor Laporan').fill(caseNumber);
      const row = table.getByRole('row').filter({ hasText: caseNumber });
      await row.getByRole('button', { name: 'Lihat' }).click();
      await main.getByRole('heading', { level: 1, name: `Detail Laporan ${caseNumber}` }).waitFor();
      caseId = Number(/\/admin\/case\/(\d+)/.exec(page.url())?.[1]);
      expect(caseId).toBeGreaterThan(0);
      await main.getByRole('button', { name: 'Tampilkan', exact: true }).click();
      const reveal = page.getByRole('dialog', { name: 'Tampilkan kontak pelapor' });
      await reveal.getByLabel('Alasan').fill('Menghubungi pelapor untuk klarifikasi faktur');
      await reveal.getByRole('button', { name: 'Tampilkan', exact: true }).click();
      await reveal.waitFor({ state: 'detached' });
      await main.getByRole('tab', { name: 'Pesan' }).click();
      await main.getByText('Belum ada pesan.').waitFor();
      // An empty message is refused with the Indonesian rule, nothing is sent.
      await main.getByRole('button', { name: 'Kirim Pesan' }).click();
      await main.getByText('Pesan wajib diisi', { exact: true }).waitFor();
      await main.getByLabel('Tulis pesan').fill(QUESTION);
      await main.getByRole('button', { name: 'Kirim Pesan' }).click();
      await snackbar(page, 'Pesan berhasil dikirim').waitFor();
      const asked = main.getByTestId('message').filter({ hasText: QUESTION });
      // Staff see which handler wrote it.
      await asked.getByText(HANDLER_NAME, { exact: true }).waitFor();
      await asked.getByText(`(${me.userTypeName})`, { exact: true }).waitFor();
      handler.expectClean();

      // 3. The guest tracks on a phone: the reply is marked new and signed by the team, never a name.
      const tracker = await journey.actor('tracker-phone', { ...PHONE, baseUrl: base });
      const t = tracker.page;
      const tm = await trackCase(t, caseNumber, CASE_PASSWORD);
      // Who saw my identity: the reveal, with a date and a role, never a name.
      const history = tm.getByRole('region', { name: 'Siapa yang melihat identitas saya' });
      await history.getByText('Membuka kontak yang disamarkan').waitFor();
      await history.getByText(me.userTypeName, { exact: true }).waitFor();
      await tm.getByRole('tab', { name: 'Pesan' }).click();
      const reply = tm.getByTestId('message').filter({ hasText: QUESTION });
      await reply.getByText('Baru', { exact: true }).waitFor();
      await reply.getByText(TEAM, { exact: true }).waitFor();
      await tm.getByText('1 balasan baru sejak kunjungan terakhir Anda').waitFor();
      expect(await t.content()).not.toContain(HANDLER_NAME);
      await tm.getByLabel('Tulis pesan').fill(ANSWER);
      await tm.getByRole('button', { name: 'Kirim Pesan' }).click();
      await snackbar(t, 'Pesan berhasil dikirim').waitFor();
      await tm.getByTestId('message').filter({ hasText: ANSWER }).getByText('Pelapor').waitFor();
      // Tambah Bukti on the Informasi Laporan tab.
      await tm.getByRole('tab', { name: 'Informasi Laporan' }).click();
      const add = tm.getByRole('region', { name: 'Tambah Bukti' });
      await add.getByText('Sisa lampiran yang dapat ditambahkan: 4.', { exact: false }).waitFor();
      await add.getByLabel('Lampiran Tambahan', { exact: true }).setInputFiles(ADDED);
      await add.getByRole('button', { name: 'Unggah Bukti' }).click();
      await snackbar(t, 'Bukti berhasil ditambahkan').waitFor();
      await tm.getByText(ADDED.name, { exact: true }).waitFor();
      expect(await t.content()).not.toContain(HANDLER_NAME);
      expect(t.url()).not.toContain(caseNumber);
      expect(await t.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      tracker.expectClean();
    });

    it('the handler sees the unread mark, reads the answer and downloads the file; another company reaches nothing', async () => {
      expect(caseId, 'the case of the first test').toBeGreaterThan(0);
      const handler = await journey.actor('handler-again', { baseUrl: base });
      const { page } = handler;
      const main = page.getByRole('main');
      await signIn(page, 'analis.direksi', 'Analis#2026!');
      await page.goto('/admin/case');
      const table = main.getByRole('table', { name: 'Daftar laporan' });
      await main.getByRole('group', { name: 'Filter laporan' }).getByLabel('Nomor Laporan').fill(caseNumber);
      const row = table.getByRole('row').filter({ hasText: caseNumber });
      await row.getByTestId('message-mark').getByText('1 pesan baru').waitFor();
      await row.getByRole('button', { name: 'Lihat' }).click();
      await main.getByRole('heading', { level: 1, name: `Detail Laporan ${caseNumber}` }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        main.getByRole('button', { name: `Unduh ${ADDED.name}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(ADDED.name);
      expect(
        readFileSync(await download.path())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      await main.getByRole('tab', { name: 'Pesan' }).click();
      const answer = main.getByTestId('message').filter({ hasText: ANSWER });
      await answer.getByText('Belum dibaca').waitFor();
      await answer.getByText('Pelapor', { exact: true }).waitFor();
      // Read now: back in the list the mark is gone.
      await main.getByRole('button', { name: 'Kembali' }).click();
      await main.getByRole('group', { name: 'Filter laporan' }).getByLabel('Nomor Laporan').fill(caseNumber);
      await row.getByRole('button', { name: 'Lihat' }).waitFor();
      await expect.poll(() => row.getByTestId('message-mark').count()).toBe(0);
      handler.expectClean();

      // Another company's handler: the case does not exist for it, in the UI and in the API.
      const other = await journey.actor('other-company', { baseUrl: base });
      other.allowHttpError(404, /^\/api\/v1\/cases\/\d+$/, 'a case of another company');
      const op = other.page;
      await signIn(op, 'admin.pakuan', 'Perusahaan#2026!');
      await op.goto(`/admin/case/${caseId}`);
      await op.waitForURL((url) => url.pathname === '/admin/case');
      await op.getByRole('main').getByRole('table', { name: 'Daftar laporan' }).waitFor();
      expect(await op.content()).not.toContain(ANSWER);
      other.expectClean();
      const cookie = await apiCookie(base, 'admin.pakuan', 'Perusahaan#2026!');
      const headers = { cookie, origin: new URL(base).origin, accept: 'application/json' };
      const messages = await fetch(`${base}/api/v1/cases/${caseId}/messages`, { headers });
      expect(messages.status).toBe(404);
      const post = await fetch(`${base}/api/v1/cases/${caseId}/messages`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Halo' }),
      });
      expect(post.status).toBe(404);
      // Unread marks come only with the rows of its own list, where this case never is.
      const list = await fetch(`${base}/api/v1/cases/search`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ from: '2020-01-01', to: wibToday(), pageSize: 100 }),
      });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { items: { id: number }[] }).items.map((i) => i.id)).not.toContain(
        caseId,
      );
      const detail = await fetch(`${base}/api/v1/cases/${caseId}`, { headers });
      expect(detail.status).toBe(404);
    });
  },
);
