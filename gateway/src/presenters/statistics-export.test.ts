/**
 * The statistics file never carries a formula: names a spreadsheet would run (= + - @, a tab or a
 * carriage return first) are prefixed with an apostrophe in the CSV and stay string cells in the XLSX
 * (generated names).
 */
import type { StatisticsReply } from '@wbs/shared/api/insights';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statisticsCsv, statisticsXlsx } from './statistics-export.ts';

const none = { measured: 0, medianDays: null, p90Days: null, withinDeadline: null };
const figures = {
  filed: 3,
  closed: 1,
  acknowledge: { measured: 2, medianDays: 1.5, p90Days: 2, withinDeadline: 0.5 },
  answer: none,
  anonymous: { anonymous: 1, identified: 2, unknown: 0 },
  returned: 1,
};

function reply(name: string): StatisticsReply {
  return {
    from: '2026-01-01',
    to: '2026-01-31',
    companyId: null,
    overall: figures,
    months: [{ month: '2026-01', filed: 3, closed: 1 }],
    channels: [{ id: 1, name, total: 3 }],
    outcomes: [{ id: 21, name: 'Ditutup', total: 1 }],
    companies: [
      { companyId: 1, companyName: name, figures },
      { companyId: 2, companyName: 'Biasa', figures },
    ],
  };
}

const dangerous = fc
  .tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r'), fc.string({ maxLength: 20 }))
  .map(([first, rest]) => `${first}${rest}`);

const formulaLike = fc
  .tuple(fc.constantFrom('=', '+', '-', '@'), fc.stringMatching(/^[A-Za-z0-9 ()|!."',;:=+@-]{0,20}$/))
  .map(([first, rest]) => `${first}${rest}`);

describe('statistics export', () => {
  it('neutralises formula-like names in the CSV', () => {
    fc.assert(
      fc.property(dangerous, (name) => {
        const csv = statisticsCsv(reply(name));
        const quoted = `"'${name.replaceAll('"', '""')}"`;
        expect(csv).toContain(quoted);
        expect(csv).not.toContain(`"${name.replaceAll('"', '""')}"`);
      }),
    );
  });

  it('writes names as string cells and figures as numbers in the XLSX', async () => {
    await fc.assert(
      // XML keeps no bare carriage return, so the XLSX round trip is checked with the printable ones.
      fc.asyncProperty(formulaLike, async (name) => {
        const book = new ExcelJS.Workbook();
        await book.xlsx.load((await statisticsXlsx(reply(name))) as unknown as ArrayBuffer);
        const sheet = book.getWorksheet('Statistik')!;
        sheet.eachRow((row) => {
          row.eachCell((cell) => {
            expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
          });
        });
        const channel = sheet.getRows(1, sheet.rowCount)!.find((row) => row.getCell(1).value === 'Kanal')!;
        expect(channel.getCell(3).value).toBe(name);
        expect(channel.getCell(4).value).toBe(3);
      }),
      { numRuns: 20 },
    );
  });
});
