/**
 * Steps shared by the journeys of resumable uploads (the wizard's evidence, Tambah Bukti): big valid
 * files, a file's row and its upload phase, the offsets the browser's PATCHes start from, and a link
 * cut mid-upload that must resume from the gateway's offset.
 */
import { randomBytes } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { type FilePayload, makePdf } from '../../support/files.ts';
import type { WeakLink } from '../../support/weak-link.ts';

/** A valid PDF padded to about `kb` KB (bytes after %%EOF are ignored by readers). */
export function bigPdf(name: string, kb: number): FilePayload {
  const pdf = makePdf(name, `Bukti ${name}`);
  const padding = Buffer.from(`\n%${randomBytes(kb * 512).toString('hex')}\n`, 'latin1');
  return { ...pdf, buffer: Buffer.concat([pdf.buffer, padding]) };
}

/** The row of a chosen file (FilePicker marks it with the file's name). */
export const uploadRow = (scope: Locator, name: string): Locator =>
  scope.locator(`[data-file-name="${name}"]`);

/** The row's upload phase: uploading, paused, retrying, accepted, refused… */
export function phaseOf(scope: Locator, name: string): Promise<string | null> {
  return uploadRow(scope, name).locator('[data-upload-phase]').getAttribute('data-upload-phase');
}

/** The Upload-Offset of every PATCH the page sends from now on, in order. */
export function patchOffsets(page: Page): number[] {
  const offsets: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && new URL(request.url()).pathname.startsWith('/api/v1/uploads/')) {
      offsets.push(Number(request.headers()['upload-offset'] ?? '-1'));
    }
  });
  return offsets;
}

/** Waits until the row's upload shows at least `percent` %. */
export async function uploadReaches(row: Locator, percent: number): Promise<void> {
  await expect
    .poll(
      async () => Number(await row.locator('[data-upload-percent]').getAttribute('data-upload-percent')),
      {
        timeout: 20_000,
      },
    )
    .toBeGreaterThanOrEqual(percent);
}

/**
 * Cuts the link under an upload in progress: the row must say it is retrying; once the link is back
 * the upload must finish, and at least one PATCH must have started from a saved, non-zero offset.
 */
export async function cutAndResume(link: WeakLink, scope: Locator, name: string, offsets: number[]) {
  const row = uploadRow(scope, name);
  link.cut();
  await expect.poll(() => phaseOf(scope, name), { timeout: 15_000 }).toBe('retrying');
  await row.getByText('Koneksi terputus, mencoba lagi…').waitFor();
  await scope.page().waitForTimeout(1500);
  link.restore();
  await expect.poll(() => phaseOf(scope, name), { timeout: 60_000 }).toBe('accepted');
  await row.getByText('Terunggah').waitFor();
  expect(offsets[0]).toBe(0);
  expect(
    offsets.some((offset) => offset > 0),
    `a PATCH resumed from a saved offset (offsets sent: ${offsets.join(', ')})`,
  ).toBe(true);
}
