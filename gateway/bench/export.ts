/**
 * `pnpm exec node gateway/bench/export.ts`: time and memory of the export presenter rewriting a legacy
 * export of BENCH_EXPORT_ROWS rows (default 10,000) from file to file, as the route does. The input is
 * written first (streaming, legacy-sim's columns as the real legacy might write them: text dates, reporter names, a formula column), then
 * the process's RSS and heap are sampled every 10 ms during the rewrite. The temporary folder is
 * removed at the end.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_HEADERS } from '@wbs/legacy-sim';
import ExcelJS from 'exceljs';
import { presentExportWorkbook } from '../src/presenters/export-workbook.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 10_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function legacyExport(path: string) {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true });
  const sheet = writer.addWorksheet('Laporan');
  sheet.addRow(EXPORT_HEADERS).commit();
  for (let i = 1; i <= ROWS; i += 1) {
    const day = String((i % 28) + 1).padStart(2, '0');
    sheet
      .addRow([
        i,
        `2026-11-${day}T09:58:26`,
        `WBS-${String(i).padStart(6, '0')}`,
        'Perumda Air Minum Tirta Kahuripan',
        'Gratifikasi',
        'Jalur Direksi',
        'Investigasi',
        'Website',
        `Pelapor Nomor ${i}`,
        {
          formula: `"Kejadian "&A${i + 1}`,
          result: `Kejadian ${i} di unit pelayanan, ${'uraian '.repeat(10)}`,
        },
      ])
      .commit();
  }
  await writer.commit();
}

const dir = await mkdtemp(join(tmpdir(), 'wbs-bench-export-'));
try {
  const input = join(dir, 'legacy.xlsx');
  const output = join(dir, 'export.xlsx');
  await legacyExport(input);
  if (process.env.BENCH_KEEP)
    await import('node:fs/promises').then((fs) => fs.copyFile(input, process.env.BENCH_KEEP!));
  globalThis.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 10);
  const started = performance.now();
  const out = createWriteStream(output);
  const summary = await presentExportWorkbook(createReadStream(input), out);
  if (!out.writableFinished) await new Promise<void>((resolve) => out.once('finish', () => resolve()));
  const ms = performance.now() - started;
  clearInterval(sampler);
  const rows: [string, string][] = [
    ['rows rewritten', String(summary.rows)],
    ['blanked columns', summary.blankedColumns.join(', ')],
    ['input / output size', `${mb((await stat(input)).size)} / ${mb((await stat(output)).size)}`],
    ['rewrite time', `${ms.toFixed(0)} ms`],
    ['RSS before / peak', `${mb(before.rss)} / ${mb(peakRss)} (+${mb(peakRss - before.rss)})`],
    ['heap used before / peak', `${mb(before.heapUsed)} / ${mb(peakHeap)}`],
  ];
  const width = Math.max(...rows.map(([key]) => key.length));
  for (const [key, value] of rows) console.log(`${key.padEnd(width)}  ${value}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
