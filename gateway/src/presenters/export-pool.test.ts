/**
 * The export's rewrite in its worker thread (export-pool.ts): the same workbook as on the main thread,
 * what is no workbook or outgrows the worker's heap refused as unreadable (never the process), and a
 * full queue a 503 `busy`.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiProblem } from '../errors.ts';
import { createExportRewriter } from './export-pool.ts';
import { IDENTITY_WITHHELD_NOTE, UnreadableWorkbook } from './export-workbook.ts';

async function writeBook(path: string, rows: number): Promise<void> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Laporan');
  sheet.addRow(['No', 'Tanggal', 'Nama Pelapor', 'Kategori', 'Kejadian']);
  for (let i = 1; i <= rows; i++) {
    // Every text its own: the reader keeps each shared string for the whole sheet.
    sheet.addRow([
      i,
      '2025-01-02 10:00:00',
      `Pelapor ${i}`,
      'Fraud',
      `Kejadian ${i} ${'x'.repeat(40)} ${i * 7}`,
    ]);
  }
  await book.xlsx.writeFile(path);
}

describe('the export pool', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wbs-export-pool-'));
    await writeBook(join(dir, 'small.xlsx'), 50);
    await writeBook(join(dir, 'large.xlsx'), 30_000);
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('rewrites in its worker as the presenter does: identities blanked and said so', async () => {
    const rewriter = createExportRewriter();
    try {
      const exportPath = join(dir, 'small.out.xlsx');
      const summary = await rewriter.rewrite({ legacyPath: join(dir, 'small.xlsx'), exportPath });
      expect(summary).toMatchObject({ sheets: 1, rows: 51, blankedColumns: ['Nama Pelapor'] });
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await readFile(exportPath)) as unknown as ArrayBuffer);
      const sheet = book.getWorksheet('Laporan')!;
      expect(sheet.getCell('C1').note).toBeDefined();
      expect(sheet.headerFooter.oddHeader).toBe(IDENTITY_WITHHELD_NOTE);
      for (let row = 2; row <= 51; row++) expect(sheet.getCell(`C${row}`).value).toBeNull();
      expect(sheet.getCell('E51').value).toContain('Kejadian 50');
    } finally {
      await rewriter.close();
    }
  }, 60_000);

  it('refuses what is no workbook as unreadable', async () => {
    const rewriter = createExportRewriter();
    try {
      const legacyPath = join(dir, 'not.xlsx');
      await writeFile(legacyPath, 'PK\x03\x04 but nothing of a zip after it');
      await expect(
        rewriter.rewrite({ legacyPath, exportPath: join(dir, 'not.out.xlsx') }),
      ).rejects.toBeInstanceOf(UnreadableWorkbook);
    } finally {
      await rewriter.close();
    }
  }, 60_000);

  it('refuses a rewrite that outgrows the worker heap as unreadable, and rewrites the next one', async () => {
    // The export worker, except that it keeps everything it reads of a file named hog.xlsx.
    const rewriter = createExportRewriter({
      threads: 1,
      maxWaiting: 4,
      heap: { oldMb: 32, youngMb: 4 },
      worker: new URL('../test/export-heap-hog-worker.ts', import.meta.url),
    });
    try {
      await expect(
        rewriter.rewrite({ legacyPath: join(dir, 'hog.xlsx'), exportPath: join(dir, 'hog.out.xlsx') }),
      ).rejects.toThrow(new UnreadableWorkbook('over the export heap'));
      // The pool starts a fresh worker for the next export.
      await expect(
        rewriter.rewrite({ legacyPath: join(dir, 'small.xlsx'), exportPath: join(dir, 'after.out.xlsx') }),
      ).resolves.toMatchObject({ rows: 51 });
    } finally {
      await rewriter.close();
    }
  }, 60_000);

  it('answers busy when more exports wait than it keeps', async () => {
    const rewriter = createExportRewriter({ threads: 1, maxWaiting: 1 });
    try {
      const settled = await Promise.allSettled(
        [1, 2, 3, 4].map((n) =>
          rewriter.rewrite({
            legacyPath: join(dir, 'large.xlsx'),
            exportPath: join(dir, `busy${n}.out.xlsx`),
          }),
        ),
      );
      const busy = settled.filter(
        (s) => s.status === 'rejected' && s.reason instanceof ApiProblem && s.reason.type === 'busy',
      );
      expect(busy.length).toBeGreaterThan(0);
      expect(settled.filter((s) => s.status === 'fulfilled').length).toBeGreaterThan(0);
      expect(busy.length + settled.filter((s) => s.status === 'fulfilled').length).toBe(4);
    } finally {
      await rewriter.close();
    }
  }, 120_000);
});
