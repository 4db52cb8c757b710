/**
 * The export worker (presenters/export-worker.ts) for the export pool's test, except for a file named
 * hog.xlsx, of which it keeps ever more: the worker outgrows its heap as a hostile workbook would.
 * Plain code only: Node loads this file itself in the worker thread.
 */
import rewriteExport, { type ExportOutcome, type ExportTask } from '../presenters/export-worker.ts';

export default async function (task: ExportTask): Promise<ExportOutcome> {
  if (!task.legacyPath.endsWith('hog.xlsx')) return rewriteExport(task);
  const kept: { row: number; text: string }[] = [];
  for (let row = 0; ; row++) kept.push({ row, text: `baris ${row}` });
}
