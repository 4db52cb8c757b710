/**
 * Journey: evidence that survives a weak phone link. Through a throttled link that the journey cuts
 * at will (../../support/weak-link.ts, 256 KB/s up, 50 ms each way), a guest chooses files on step 3 and they upload at once:
 * - each row shows its progress (percent, size, time left);
 * - the journey cuts the link mid-upload: the row says it is retrying, and once the link is back the
 *   upload goes on from the offset the gateway holds (a PATCH with a non-zero Upload-Offset);
 * - Jeda pauses an upload and Lanjutkan resumes it;
 * - a damaged file is refused next to its name as soon as its upload completes, before Simpan;
 * - a report with five resumed files is filed once (one POST /cases).
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type FilePayload, makePdf } from '../../support/files.ts';
import { startWeakLink, type WeakLink } from '../../support/weak-link.ts';
import { baseUrl, useJourney } from './support.ts';
import {
  fillCasePassword,
  fillCommunication,
  fillIdentityAnonymous,
  fillReport,
  next,
  saveReport,
  shownCaseNumber,
  waitForStep,
} from './wizard.ts';

const journey = useJourney('resumable-uploads');
const stamp = Date.now().toString(36);

/** A valid PDF padded to about `kb` KB (bytes after %%EOF are ignored by readers). */
function bigPdf(name: string, kb: number): FilePayload {
  const pdf = makePdf(name, `Bukti ${name}`);
  const padding = Buffer.from(`\n%${randomBytes(kb * 512).toString('hex')}\n`, 'latin1');
  return { ...pdf, buffer: Buffer.concat([pdf.buffer, padding]) };
}

const rowOf = (page: Page, name: string) => page.getByRole('main').locator(`[data-file-name="${name}"]`);

async function phaseOf(page: Page, name: string): Promise<string | null> {
  return rowOf(page, name).locator('[data-upload-phase]').getAttribute('data-upload-phase');
}

describe('evidence on a weak link', () => {
  it('uploads at once with progress, resumes after a cut, refuses a damaged file early, files once', async () => {
    const link: WeakLink = await startWeakLink({
      targetPort: Number(new URL(baseUrl).port),
      upBytesPerSecond: 256 * 1024,
      oneWayLatencyMs: 50,
    });
    const guest = await journey.actor('guest-weak-link', { baseUrl: `http://localhost:${link.port}` });
    const { page } = guest;
    const main = page.getByRole('main');

    const offsets: number[] = [];
    let casePosts = 0;
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.method() === 'PATCH' && path.startsWith('/api/v1/uploads/')) {
        offsets.push(Number(request.headers()['upload-offset'] ?? '-1'));
      }
      if (request.method() === 'POST' && path === '/api/v1/cases') casePosts += 1;
    });

    await page.goto('/case/create');
    await waitForStep(page, 0);
    await fillIdentityAnonymous(page);
    await next(page);
    await waitForStep(page, 1);
    await fillCommunication(page);
    await next(page);
    await waitForStep(page, 2);
    await fillReport(page);
    await next(page);
    await waitForStep(page, 3);

    // Progress is visible while the evidence uploads.
    const evidence = bigPdf(`bukti-utama-${stamp}.pdf`, 1500);
    await main.getByLabel('Bukti Pendukung', { exact: true }).setInputFiles(evidence);
    const row = rowOf(page, evidence.name);
    await expect
      .poll(
        async () => Number(await row.locator('[data-upload-percent]').getAttribute('data-upload-percent')),
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThanOrEqual(15);
    const line = (await row.innerText()).replace(/\s+/g, ' ');
    expect(line).toMatch(/Mengunggah · \d+% · .+ dari .+ · (sisa \d+ (detik|menit)|menghitung sisa waktu…)/);

    // The link is cut mid-upload: the row says so; back online, the upload goes on from its offset.
    link.cut();
    await expect.poll(() => phaseOf(page, evidence.name), { timeout: 15_000 }).toBe('retrying');
    await row.getByText('Koneksi terputus, mencoba lagi…').waitFor();
    await page.waitForTimeout(1500);
    link.restore();
    await expect.poll(() => phaseOf(page, evidence.name), { timeout: 60_000 }).toBe('accepted');
    await row.getByText('Terunggah').waitFor();
    expect(offsets[0]).toBe(0);
    expect(
      offsets.some((offset) => offset > 0),
      `a PATCH resumed from a saved offset (offsets sent: ${offsets.join(', ')})`,
    ).toBe(true);

    // Jeda and Lanjutkan.
    const second = bigPdf(`lampiran-1-${stamp}.pdf`, 800);
    await main.getByLabel('Lampiran Lainnya', { exact: true }).setInputFiles(second);
    const secondRow = rowOf(page, second.name);
    await secondRow.getByRole('button', { name: `Jeda ${second.name}` }).click();
    await expect.poll(() => phaseOf(page, second.name)).toBe('paused');
    await secondRow.getByText(/^Dijeda · \d+%/).waitFor();
    await secondRow.getByRole('button', { name: `Lanjutkan ${second.name}` }).click();
    await expect.poll(() => phaseOf(page, second.name), { timeout: 60_000 }).toBe('accepted');

    // A damaged file: refused next to its name as soon as its upload completes, before Simpan.
    const damaged: FilePayload = {
      name: `rusak-${stamp}.pdf`,
      mimeType: 'application/pdf',
      buffer: randomBytes(40_000),
    };
    await main.getByLabel('Lampiran Lainnya', { exact: true }).setInputFiles(damaged);
    const refused = main.locator('[data-file-error]').filter({ hasText: damaged.name });
    await refused.getByRole('alert').waitFor({ timeout: 30_000 });
    expect(await refused.getByRole('alert').innerText()).toContain(damaged.name);
    expect(casePosts).toBe(0);
    await main.getByRole('button', { name: `Hapus ${damaged.name}` }).click();
    await expect.poll(() => main.locator('[data-file-error]').count()).toBe(0);

    // Three more, one of them cut on the way: five files in all.
    const rest = [2, 3, 4].map((i) => bigPdf(`lampiran-${i}-${stamp}.pdf`, 400));
    await main.getByLabel('Lampiran Lainnya', { exact: true }).setInputFiles(rest);
    await expect
      .poll(
        async () =>
          Number(
            await rowOf(page, rest[0]?.name ?? '')
              .locator('[data-upload-percent]')
              .getAttribute('data-upload-percent'),
          ),
        { timeout: 20_000 },
      )
      .toBeGreaterThan(0);
    link.cut();
    await page.waitForTimeout(1500);
    link.restore();
    for (const file of rest) {
      await expect.poll(() => phaseOf(page, file.name), { timeout: 90_000 }).toBe('accepted');
    }

    link.setRate(50 * 1024 * 1024);
    await fillCasePassword(page, `Sumur-Jauh-${stamp}`);
    await saveReport(page);
    const caseNumber = await shownCaseNumber(page);
    expect(caseNumber).toMatch(/^WBS-\d{8}$/);
    expect(casePosts, 'the report was filed in one request').toBe(1);

    // The link cuts make the browser log failed requests: those are this journey's own doing.
    for (let i = guest.problems.length - 1; i >= 0; i--) {
      if (/net::ERR|Failed to load resource/.test(guest.problems[i] ?? '')) {
        guest.problems.splice(i, 1);
      }
    }
    guest.expectClean();
    await link.close();
  }, 300_000);
});
