import { Readable, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DATE_FORMAT,
  EXPORT_LIMITS,
  IDENTITY_WITHHELD_NOTE,
  parseTextDate,
  presentExportWorkbook,
  UnreadableWorkbook,
} from './export-workbook.ts';

async function bookBytes(fill: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  fill(book.addWorksheet('Laporan'));
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function present(input: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await presentExportWorkbook(Readable.from([input]), output);
  return Buffer.concat(chunks);
}

async function load(bytes: Buffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book.getWorksheet('Laporan')!;
}

function everyCell(sheet: ExcelJS.Worksheet, visit: (cell: ExcelJS.Cell) => void) {
  sheet.eachRow({ includeEmpty: true }, (row) => {
    row.eachCell({ includeEmpty: true }, visit);
  });
}

const HEADERS = [
  'No',
  'Tanggal',
  'Nama Pelapor',
  'E-MAIL',
  'No. HP',
  'alamat pelapor',
  'caseWhistleblowerPhone',
  'Kategori',
  'Terlapor',
  'Tanggal Kejadian',
];

describe('the export presenter', () => {
  it('blanks every reporter-identity column, keeps the others, and says so', async () => {
    const input = await bookBytes((sheet) => {
      sheet.addRow(HEADERS);
      sheet.addRow([
        1,
        '2026-11-21T09:58:26',
        'Budi Santoso',
        'budi@contoh.id',
        '081234567890',
        'Jl. Mawar 1',
      ]);
      sheet.getRow(2).getCell(7).value = '+62 812 0000';
      sheet.getRow(2).getCell(8).value = 'Gratifikasi';
      sheet.getRow(2).getCell(9).value = 'Pak Kepala';
      sheet.addRow([2, new Date(Date.UTC(2026, 10, 20, 8, 0)), { richText: [{ text: 'Siti' }] }]);
    });
    const bytes = await present(input);
    const sheet = await load(bytes);
    expect(sheet.getRow(1).values).toEqual([undefined, ...HEADERS]);
    for (const column of [3, 4, 5, 6, 7]) {
      expect(sheet.getCell(1, column).note).toBe(IDENTITY_WITHHELD_NOTE);
      expect(sheet.getCell(2, column).value).toBeNull();
      expect(sheet.getCell(3, column).value).toBeNull();
    }
    expect(sheet.getCell(1, 8).note).toBeUndefined();
    expect(sheet.getCell(2, 8).value).toBe('Gratifikasi');
    expect(sheet.getCell(2, 9).value).toBe('Pak Kepala');
    expect(sheet.headerFooter.oddHeader).toBe(IDENTITY_WITHHELD_NOTE);
    // Not a byte of the identities is left anywhere in the file (inflated parts included).
    const raw = await rawParts(bytes);
    for (const secret of ['Budi', 'budi@contoh.id', '081234567890', 'Mawar', '+62 812', 'Siti']) {
      expect(raw).not.toContain(secret);
    }
  });

  it('finds the header below a title row, and takes no report text for a header', async () => {
    const input = await bookBytes((sheet) => {
      sheet.addRow(['Laporan WBS Perumda Air Minum Tirta Kahuripan']);
      sheet.addRow(['Dilaporkan oleh pelapor melalui website']);
      sheet.addRow([]);
      sheet.addRow(['No', 'Kejadian', 'Nama Pelapor', 'Tanggal']);
      sheet.addRow([1, 'Pelapor melihat suap', 'Budi Santoso', '2026-11-21T09:58:26']);
    });
    const sheet = await load(await present(input));
    expect(sheet.getCell('A1').value).toBe('Laporan WBS Perumda Air Minum Tirta Kahuripan');
    expect(sheet.getCell('A2').value).toBe('Dilaporkan oleh pelapor melalui website');
    expect(sheet.getCell('C4').note).toBe(IDENTITY_WITHHELD_NOTE);
    expect(sheet.getCell('B5').value).toBe('Pelapor melihat suap');
    expect(sheet.getCell('C5').value).toBeNull();
    expect(sheet.getCell('D5').value).toEqual(new Date(Date.UTC(2026, 10, 21, 9, 58, 26)));
  });

  it('turns text dates of date columns into date cells shown dd/mm/yyyy, keeping real dates', async () => {
    const real = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    const texts: [string, Date | string][] = [
      ['2026-11-21T09:58:26', new Date(Date.UTC(2026, 10, 21, 9, 58, 26))],
      ['2026-11-21 09:58:26.123', new Date(Date.UTC(2026, 10, 21, 9, 58, 26))],
      ['2026-11-21', new Date(Date.UTC(2026, 10, 21))],
      ['21/11/2026 09:58', new Date(Date.UTC(2026, 10, 21, 9, 58))],
      // With a zone: moved to WIB wall time.
      ['2026-11-21T02:58:26Z', new Date(Date.UTC(2026, 10, 21, 9, 58, 26))],
      ['2026-11-21T10:58:26+08:00', new Date(Date.UTC(2026, 10, 21, 9, 58, 26))],
      // Not dates: kept as text.
      ['2026-02-31', '2026-02-31'],
      ['kemarin sore', 'kemarin sore'],
    ];
    const input = await bookBytes((sheet) => {
      sheet.addRow(['No', 'Tanggal', 'Kategori', 'Tanggal Kejadian']);
      for (const [i, [text]] of texts.entries()) sheet.addRow([i + 1, text, '2026-11-21', text]);
      sheet.addRow([texts.length + 1, real]);
      sheet.getCell(texts.length + 2, 2).numFmt = 'yyyy-mm-dd hh:mm';
    });
    const sheet = await load(await present(input));
    for (const [i, [, expected]] of texts.entries()) {
      for (const column of [2, 4]) {
        const cell = sheet.getCell(i + 2, column);
        expect(cell.value).toEqual(expected);
        if (expected instanceof Date) expect(cell.numFmt).toBe(DATE_FORMAT);
      }
      // A column that is not a date column keeps its text.
      expect(sheet.getCell(i + 2, 3).value).toBe('2026-11-21');
    }
    const kept = sheet.getCell(texts.length + 2, 2);
    expect(kept.value).toEqual(real);
    expect(kept.numFmt).toBe(DATE_FORMAT);
  });

  it('writes no formula: every formula cell becomes its cached value', async () => {
    const input = await bookBytes((sheet) => {
      sheet.addRow(['No', 'Kategori', 'Kejadian', 'Tanggal']);
      sheet.addRow([
        1,
        { formula: '1+1', result: 2 },
        { formula: 'HYPERLINK("http://evil.test","klik")', result: 'klik' },
      ]);
      sheet.getCell(2, 4).value = { formula: 'DATE(2026,11,21)', result: 46347 };
      sheet.addRow([2, { formula: 'B2*10', result: 20 }, { formula: "cmd|' /C calc'!A0" }]);
      sheet.addRow([3, { sharedFormula: 'B3', result: 20 } as unknown as ExcelJS.CellValue]);
    });
    const bytes = await present(input);
    const sheet = await load(bytes);
    everyCell(sheet, (cell) => {
      expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
      expect(cell.formula).toBeUndefined();
    });
    expect(sheet.getCell(2, 2).value).toBe(2);
    expect(sheet.getCell(2, 3).value).toBe('klik');
    expect(sheet.getCell(3, 2).value).toBe(20);
    expect(sheet.getCell(3, 3).value).toBeNull();
    expect(await rawParts(bytes)).not.toMatch(/<f[ >]/);
  });

  it('keeps hostile strings as string cells (generated: = + - @ tab CR, any unicode after)', async () => {
    const hostile = fc.tuple(
      fc.constantFrom('=', '+', '-', '@', '\t', '\r', '=cmd|', '@SUM(', '-2+3'),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 12 }), async (cases) => {
        const texts = cases.map(([lead, rest]) => `${lead}${rest}`);
        const input = await bookBytes((sheet) => {
          sheet.addRow(['No', 'Kejadian', 'Tanggal']);
          for (const [i, text] of texts.entries()) sheet.addRow([i + 1, text, text]);
        });
        const bytes = await present(input);
        const sheet = await load(bytes);
        for (const [i, text] of texts.entries()) {
          for (const column of [2, 3]) {
            const cell = sheet.getCell(i + 2, column);
            expect(cell.type).toBe(ExcelJS.ValueType.String);
            // XML reads every CR (and CR LF) as LF: so does any xlsx reader, Excel included.
            expect(cell.value).toBe(text.replace(/\r\n?/g, '\n'));
          }
        }
        expect(await rawParts(bytes)).not.toMatch(/<f[ >]/);
      }),
      { numRuns: 25 },
    );
    // Each run writes and reads two workbooks: generous on a loaded machine (no timing asserted).
  }, 120_000);

  it('parses only real text dates', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (d) => {
          const text = d.toISOString().slice(0, 19);
          expect(parseTextDate(text)?.getTime()).toBe(Math.floor(d.getTime() / 1000) * 1000);
        },
      ),
    );
    for (const text of [
      '',
      '2026-13-01',
      '2026-00-10',
      '31/02/2026',
      '2026-11-21T24:00:00',
      '=2026-11-21',
      'abc',
    ]) {
      expect(parseTextDate(text)).toBeNull();
    }
  });

  it('refuses what is not a readable workbook', async () => {
    const good = await bookBytes((sheet) => {
      sheet.addRow(['No', 'Kejadian']);
      for (let i = 1; i <= 500; i += 1) sheet.addRow([i, `kejadian ${i} `.repeat(20)]);
    });
    const damaged = [
      Buffer.alloc(0),
      Buffer.from('<html>Internal Server Error</html>'),
      Buffer.from('{"code":-1,"message":["gagal"],"data":null}'),
      good.subarray(0, Math.floor(good.length / 2)),
      Buffer.concat([good.subarray(0, 200), Buffer.alloc(4000, 0x41), good.subarray(4200)]),
    ];
    for (const bytes of damaged) {
      await expect(present(bytes)).rejects.toBeInstanceOf(UnreadableWorkbook);
    }
  });

  it('gives up on an input that stops halfway or fails, instead of waiting forever', async () => {
    const good = await bookBytes((sheet) => {
      sheet.addRow(['No', 'Kejadian']);
      for (let i = 1; i <= 500; i += 1) sheet.addRow([i, `kejadian ${i} `.repeat(20)]);
    });
    const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
    const stopping = new Readable({ read() {} });
    stopping.push(good.subarray(0, 3000));
    await expect(presentExportWorkbook(stopping, sink(), { ...EXPORT_LIMITS, stallMs: 200 })).rejects.toThrow(
      'parse stalled',
    );
    const failing = new Readable({ read() {} });
    failing.push(good.subarray(0, 3000));
    setTimeout(() => failing.destroy(new Error('socket hang up')), 50);
    await expect(presentExportWorkbook(failing, sink())).rejects.toBeInstanceOf(UnreadableWorkbook);
  });

  it('refuses rows out of order, and reads a hand-written sheet of inline strings and formulas', async () => {
    const sheetXml = (rows: string) =>
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
    const header =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Nama Pelapor</t></is></c><c r="B1" t="inlineStr"><is><t>Kejadian</t></is></c></row>';
    const hostile =
      '<row r="2"><c r="A2" t="inlineStr"><is><t>Budi</t></is></c><c r="B2" t="str"><f>HYPERLINK("http://evil.test","x")</f><v>x</v></c></row>';
    const readable = await handWritten(sheetXml(header + hostile));
    const sheet = await load(await present(readable));
    expect(sheet.getCell('A2').value).toBeNull();
    expect(sheet.getCell('B2').value).toBe('x');
    expect(sheet.getCell('B2').formula).toBeUndefined();
    const swapped = await handWritten(sheetXml(hostile + header));
    await expect(present(swapped)).rejects.toThrow('rows out of order');
  });

  it('refuses a workbook beyond the row limit', async () => {
    const input = await bookBytes((sheet) => {
      for (let i = 0; i < 30; i += 1) sheet.addRow([i]);
    });
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    await expect(
      presentExportWorkbook(Readable.from([input]), sink, { ...EXPORT_LIMITS, rows: 20 }),
    ).rejects.toThrow('more than 20 rows');
  });
});

describe('exceljs with the uuid the workspace forces (pnpm-workspace.yaml overrides, docs/adr/0049-uuid-forced-to-11-1-1.md)', () => {
  it('still writes the ids of extended conditional formats, its one use of uuid', async () => {
    const bytes = await bookBytes((sheet) => {
      sheet.addRows([[1], [2], [3]]);
      // An icon set exceljs writes as an x14 extension: its id comes from uuid's v4().
      sheet.addConditionalFormatting({
        ref: 'A1:A3',
        rules: [
          { type: 'iconSet', priority: 1, iconSet: '3Triangles', cfvo: [{ type: 'percent', value: 0 }] },
        ],
      });
    });
    const ids = [...(await rawParts(bytes)).matchAll(/<x14:cfRule [^>]*id="\{([0-9A-F-]+)\}"/g)].map(
      (m) => m[1],
    );
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
  });
});

/** Every part of an xlsx, inflated, as one string (yauzl: the gateway's zip reader). */
async function rawParts(xlsx: Buffer): Promise<string> {
  const yauzl = await import('yauzl');
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(xlsx, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const parts: Buffer[] = [];
      zip.on('entry', (entry: { fileName: string }) => {
        zip.openReadStream(entry as never, (streamError, stream) => {
          if (streamError) return reject(streamError);
          stream.on('data', (chunk: Buffer) => parts.push(chunk));
          stream.on('end', () => zip.readEntry());
        });
      });
      zip.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A minimal xlsx written part by part (yazl), as a legacy other than exceljs might write it. */
async function handWritten(sheetXml: string): Promise<Buffer> {
  const { ZipFile } = await import('yazl');
  const zip = new ZipFile();
  const parts: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    'xl/workbook.xml':
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Laporan" sheetId="1" r:id="rId1"/></sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    'xl/worksheets/sheet1.xml': sheetXml,
  };
  for (const [name, text] of Object.entries(parts)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
