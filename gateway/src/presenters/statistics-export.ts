/**
 * Statistik as a file (docs/product/insights.md): one long table (section, company, measure, value)
 * written as XLSX (exceljs; numbers as number cells, no formula anywhere) or as CSV (RFC 4180, UTF-8
 * with a BOM, every cell quoted, and a cell a spreadsheet would read as a formula prefixed with an
 * apostrophe, as the audit trail's CSV). Aggregates only: no case id, number or name.
 */
import type { StatisticsReply } from '@wbs/shared/api/insights';
import { csvCell } from './csv.ts';

export type ExportRow = [section: string, company: string, measure: string, value: string | number | null];

export const EXPORT_HEADER = ['Bagian', 'Perusahaan', 'Ukuran', 'Nilai'] as const;

type Figures = StatisticsReply['overall'];

/** A share as a percentage to one decimal (null stays empty). */
const percent = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 10);

function figureRows(section: string, company: string, f: Figures): ExportRow[] {
  return [
    [section, company, 'Laporan masuk', f.filed],
    [section, company, 'Laporan berstatus akhir', f.closed],
    [section, company, 'Tanggapan awal: laporan terukur', f.acknowledge.measured],
    [section, company, 'Tanggapan awal: median (hari)', f.acknowledge.medianDays],
    [section, company, 'Tanggapan awal: persentil 90 (hari)', f.acknowledge.p90Days],
    [section, company, 'Tanggapan awal: tepat waktu (%)', percent(f.acknowledge.withinDeadline)],
    [section, company, 'Jawaban: laporan terukur', f.answer.measured],
    [section, company, 'Jawaban: median (hari)', f.answer.medianDays],
    [section, company, 'Jawaban: persentil 90 (hari)', f.answer.p90Days],
    [section, company, 'Jawaban: tepat waktu (%)', percent(f.answer.withinDeadline)],
    [section, company, 'Laporan anonim', f.anonymous.anonymous],
    [section, company, 'Laporan beridentitas', f.anonymous.identified],
    [section, company, 'Laporan belum terbaca', f.anonymous.unknown],
    [section, company, 'Pelapor kembali memantau atau membalas', f.returned],
  ];
}

/** The scope's name in the file: the one company, or all companies of the scope. */
function scopeName(s: StatisticsReply): string {
  if (s.companyId !== null) return s.companies[0]?.companyName ?? String(s.companyId);
  return 'Semua perusahaan';
}

export function statisticsRows(s: StatisticsReply): ExportRow[] {
  const scope = scopeName(s);
  const rows: ExportRow[] = [
    ['Periode', scope, 'Dari tanggal', s.from],
    ['Periode', scope, 'Sampai tanggal', s.to],
    ...figureRows('Ringkasan', scope, s.overall),
  ];
  for (const m of s.months) {
    rows.push(['Per bulan', scope, `${m.month}: laporan masuk`, m.filed]);
    rows.push(['Per bulan', scope, `${m.month}: berstatus akhir`, m.closed]);
  }
  for (const c of s.channels) rows.push(['Kanal', scope, c.name, c.total]);
  for (const o of s.outcomes) rows.push(['Status akhir', scope, o.name, o.total]);
  if (s.companies.length > 1) {
    for (const c of s.companies) rows.push(...figureRows('Per perusahaan', c.companyName, c.figures));
  }
  return rows;
}

export function statisticsCsv(s: StatisticsReply): string {
  const lines = [EXPORT_HEADER, ...statisticsRows(s)].map((row) => row.map(csvCell).join(','));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

export async function statisticsXlsx(s: StatisticsReply): Promise<Buffer> {
  const ExcelJS = (await import('exceljs')).default;
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'WBS';
  const sheet = workbook.addWorksheet('Statistik');
  sheet.columns = [
    { header: EXPORT_HEADER[0], width: 18 },
    { header: EXPORT_HEADER[1], width: 32 },
    { header: EXPORT_HEADER[2], width: 44 },
    { header: EXPORT_HEADER[3], width: 14 },
  ];
  sheet.getRow(1).font = { bold: true };
  // Strings are string cells (exceljs writes a formula only from a { formula } value): a name that
  // starts with "=" stays text.
  for (const row of statisticsRows(s)) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
