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
import { describe, expect, it } from 'vitest';
import type { FilePayload } from '../../support/files.ts';
import { startWeakLink, type WeakLink } from '../../support/weak-link.ts';
import { baseUrl, forgive, useJourney } from './support.ts';
import { bigPdf, cutAndResume, patchOffsets, phaseOf, uploadReaches, uploadRow } from './uploads.ts';
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

    const offsets = patchOffsets(page);
    let casePosts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/v1/cases') casePosts += 1;
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
    const row = uploadRow(main, evidence.name);
    await uploadReaches(row, 15);
    const line = (await row.innerText()).replace(/\s+/g, ' ');
    expect(line).toMatch(/Mengunggah · \d+% · .+ dari .+ · (sisa \d+ (detik|menit)|menghitung sisa waktu…)/);

    // The link is cut mid-upload: the row says so; back online, the upload goes on from its offset.
    await cutAndResume(link, main, evidence.name, offsets);

    // Jeda and Lanjutkan.
    const second = bigPdf(`lampiran-1-${stamp}.pdf`, 800);
    await main.getByLabel('Lampiran Lainnya', { exact: true }).setInputFiles(second);
    const secondRow = uploadRow(main, second.name);
    await secondRow.getByRole('button', { name: `Jeda ${second.name}` }).click();
    await expect.poll(() => phaseOf(main, second.name)).toBe('paused');
    await secondRow.getByText(/^Dijeda · \d+%/).waitFor();
    await secondRow.getByRole('button', { name: `Lanjutkan ${second.name}` }).click();
    await expect.poll(() => phaseOf(main, second.name), { timeout: 60_000 }).toBe('accepted');

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
    await uploadReaches(uploadRow(main, rest[0]?.name ?? ''), 1);
    link.cut();
    await page.waitForTimeout(1500);
    link.restore();
    for (const file of rest) {
      await expect.poll(() => phaseOf(main, file.name), { timeout: 90_000 }).toBe('accepted');
    }

    link.setRate(50 * 1024 * 1024);
    await fillCasePassword(page, `Sumur-Jauh-${stamp}`);
    await saveReport(page);
    const caseNumber = await shownCaseNumber(page);
    expect(caseNumber).toMatch(/^WBS-\d{8}$/);
    expect(casePosts, 'the report was filed in one request').toBe(1);

    // The link cuts make the browser log failed requests: those are this journey's own doing.
    forgive(guest.problems, /net::ERR|Failed to load resource/);
    guest.expectClean();
    await link.close();
  }, 300_000);
});
