/**
 * The export's rewrite (export-workbook.ts) from one spooled file to another, run inside a worker
 * thread of the export pool (export-pool.ts): never on the main thread, whose heap would otherwise
 * grow by the rewrite's garbage and keep exceljs loaded. Plain code only: Node loads this file itself
 * (type stripping), without the project's test or build transforms.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { type ExportSummary, presentExportWorkbook, UnreadableWorkbook } from './export-workbook.ts';

export type ExportTask = { legacyPath: string; exportPath: string };

/** A class does not cross the thread: a workbook the gateway cannot read comes back as an outcome. */
export type ExportOutcome = { ok: true; summary: ExportSummary } | { ok: false; reason: string };

export default async function rewriteExport(task: ExportTask): Promise<ExportOutcome> {
  const output = createWriteStream(task.exportPath, { mode: 0o600 });
  try {
    const summary = await presentExportWorkbook(createReadStream(task.legacyPath), output);
    if (!output.writableFinished) await once(output, 'finish');
    return { ok: true, summary };
  } catch (error) {
    output.destroy();
    if (error instanceof UnreadableWorkbook) return { ok: false, reason: error.message };
    throw error;
  }
}
