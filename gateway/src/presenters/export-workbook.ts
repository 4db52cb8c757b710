/**
 * The case export as it leaves the gateway (docs/adr/0013-excel-export-rewritten-by-the-gateway.md): the
 * legacy's workbook is read and rewritten
 * row by row (exceljs streaming reader and writer, so memory stays bounded whatever the row count) so
 * that, whatever the legacy writes,
 * - no reporter identity travels in a file that goes around by e-mail: identity columns, found by their
 *   header, are blanked and the header cell and the print header say so;
 * - date columns hold real date cells shown `dd/mm/yyyy` (the legacy may write WIB wall time as text);
 * - no cell is a formula: a formula becomes its cached value, and strings are written as string cells
 *   (never parsed, so `=`, `+`, `-`, `@` stay text).
 * A workbook that cannot be read throws `UnreadableWorkbook`; the caller must not have sent a byte yet.
 */
import { Readable, type Writable } from 'node:stream';
import type ExcelJS from 'exceljs';

/** What is written in place of identities, in the header cell's note and the printed page header. */
export const IDENTITY_WITHHELD_NOTE =
  'Identitas pelapor tidak disertakan dalam ekspor ini untuk melindungi pelapor.';
export const DATE_FORMAT = 'dd/mm/yyyy';

/** Headers naming a reporter's identity, compared without case, spaces or punctuation. */
const IDENTITY_HEADERS = new Set(
  [
    'Nama',
    'Nama Lengkap',
    'Nama Pelapor',
    'Pelapor',
    'Identitas Pelapor',
    'E-mail',
    'Email',
    'Alamat Email',
    'Alamat E-mail',
    'Email Pelapor',
    'Telepon',
    'Telp',
    'No. Telp',
    'No Telepon',
    'No. Telepon',
    'Nomor Telepon',
    'Telepon Pelapor',
    'No. HP',
    'No HP',
    'Nomor HP',
    'HP',
    'Handphone',
    'No. Handphone',
    'WhatsApp',
    'No. WA',
    'Phone',
    'Phone Number',
    'Alamat',
    'Alamat Pelapor',
    'Address',
    'NIK',
    'KTP',
    'No. KTP',
    'Jabatan Pelapor',
    'Name',
    'Reporter',
    'Reporter Name',
    'Whistleblower',
    'Whistleblower Name',
  ].map(headerKey),
);
/** Any header about the reporter or the whistleblower counts too (caseWhistleblowerPhone, Unit Pelapor…). */
const IDENTITY_WORDS = /pelapor|whistleblower|reporter/;
/** Other headers of the legacy's export: any of them marks the header row. */
const EXPORT_HEADERS = new Set(
  [
    'No',
    'Tanggal',
    'Nomor Laporan',
    'Nomor Pengaduan',
    'Perusahaan',
    'Kategori',
    'Jalur Otorisasi',
    'Status',
    'Saluran',
    'Kejadian',
  ].map(headerKey),
);
const DATE_HEADERS = /^(tanggal|tgl|date|created|createddate|tanggaldibuat|waktu|waktulaporan)/;

/** A legacy export is a few thousand rows; far beyond this the file is not an export (or is a bomb). */
export const EXPORT_LIMITS = { rows: 200_000, columns: 100, stallMs: 30_000 };

export class UnreadableWorkbook extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'UnreadableWorkbook';
  }
}

export type ExportSummary = {
  sheets: number;
  rows: number;
  blankedColumns: string[];
  datedColumns: string[];
};

type ColumnRole = 'identity' | 'date' | 'keep';

function headerKey(header: string): string {
  return header.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

function roleOf(header: string): ColumnRole {
  const key = headerKey(header);
  if (key === '') return 'keep';
  if (IDENTITY_HEADERS.has(key) || IDENTITY_WORDS.test(key)) return 'identity';
  if (DATE_HEADERS.test(key)) return 'date';
  return 'keep';
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const DMY_DATE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T,]+(\d{1,2})[.:](\d{2})(?:[.:](\d{2}))?)?$/;
const WIB_OFFSET_MINUTES = 7 * 60;

/**
 * A text date as the WIB wall time in a Date's UTC fields (how spreadsheet dates carry no zone and how
 * exceljs writes them), or null when it is not a date. Without a zone the text already is WIB wall time
 * (the legacy writes local Jakarta time); with one it is moved to WIB.
 */
export function parseTextDate(text: string): Date | null {
  const value = text.trim();
  const iso = ISO_DATE.exec(value);
  const dmy = iso ? null : DMY_DATE.exec(value);
  const parts = iso
    ? [iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]]
    : dmy
      ? [dmy[3], dmy[2], dmy[1], dmy[4], dmy[5], dmy[6]]
      : null;
  if (!parts) return null;
  const [year, month, day, hour, minute, second] = parts.map((p) => Number(p ?? 0)) as number[];
  if (month! < 1 || month! > 12 || day! < 1 || hour! > 23 || minute! > 59 || second! > 59) return null;
  const wall = Date.UTC(year!, month! - 1, day!, hour, minute, second);
  const date = new Date(wall);
  // Date.UTC rolls 31/02 into March: such a text is not a date.
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month! - 1) return null;
  const zone = iso?.[7];
  if (!zone) return date;
  if (zone.toUpperCase() === 'Z') return new Date(wall + WIB_OFFSET_MINUTES * 60_000);
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  return new Date(wall + (WIB_OFFSET_MINUTES - offset) * 60_000);
}

type CellValue = ExcelJS.CellValue;

/** Any legacy value as a plain value: formulas become their cached result, rich text and links text. */
function plainValue(value: CellValue): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object' || value instanceof Date) return value;
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    if (result === undefined || result === null) return null;
    return plainValue(result as CellValue);
  }
  if ('richText' in value) return value.richText.map((run) => run.text ?? '').join('');
  if ('text' in value && typeof value.text === 'string') return value.text;
  if ('error' in value) return value;
  if ('sharedString' in value) return null;
  return null;
}

/** A date column's value: text dates become dates; anything else is kept. */
function dateValue(value: CellValue): CellValue {
  if (typeof value !== 'string') return value;
  return parseTextDate(value) ?? value;
}

/** Text of a header cell, or '' when it is not text. */
function headerText(value: CellValue): string {
  const plain = plainValue(value);
  return typeof plain === 'string' ? plain : '';
}

type StreamSheetReader = AsyncIterable<ExcelJS.Row> & { name?: string };

/**
 * Reads the workbook from `input` and writes the export to `output` (ended when done). Throws
 * `UnreadableWorkbook` when `input` is not a workbook the gateway can read; `output` then holds garbage
 * and must be thrown away.
 */
export async function presentExportWorkbook(
  input: Readable,
  output: Writable,
  limits = EXPORT_LIMITS,
): Promise<ExportSummary> {
  // exceljs pipes its input into unzipper, and a pipe passes on no error: an input that fails or stops
  // feeding the unzipper (an empty file does) would leave the rewrite waiting forever. So the input is
  // checked to start as a zip, its failure ends the rewrite, and so does a parse that stalls.
  let lastProgress = Date.now();
  const progress = () => {
    lastProgress = Date.now();
  };
  const zip = await zipStream(input, progress);
  let stalled: NodeJS.Timeout | undefined;
  const failure = new Promise<never>((_resolve, reject) => {
    zip.once('error', (error) => reject(new UnreadableWorkbook('input failed', { cause: error })));
    stalled = setInterval(
      () => {
        if (Date.now() - lastProgress > limits.stallMs) reject(new UnreadableWorkbook('parse stalled'));
      },
      Math.max(10, limits.stallMs / 4),
    );
  });
  failure.catch(() => undefined);
  try {
    return await Promise.race([rewrite(zip, output, limits, progress), failure]);
  } catch (error) {
    input.destroy();
    zip.destroy();
    if (error instanceof UnreadableWorkbook) throw error;
    throw new UnreadableWorkbook('not a readable xlsx', { cause: error });
  } finally {
    clearInterval(stalled);
  }
}

const ZIP_SIGNATURE = Buffer.from('PK\x03\x04', 'latin1');

/** `input` again, once its first bytes are a zip's local file header (else `UnreadableWorkbook`). */
async function zipStream(input: Readable, progress: () => void): Promise<Readable> {
  const chunks = input[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  while (head.length < ZIP_SIGNATURE.length) {
    const next = await chunks.next().catch((error: unknown) => {
      throw new UnreadableWorkbook('input failed', { cause: error });
    });
    if (next.done) throw new UnreadableWorkbook('not a zip');
    head = Buffer.concat([head, Buffer.from(next.value as Buffer)]);
  }
  if (!head.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) {
    input.destroy();
    throw new UnreadableWorkbook('not a zip');
  }
  return Readable.from(
    (async function* () {
      yield head;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        progress();
        yield next.value as Buffer;
      }
    })(),
    { objectMode: false },
  );
}

async function rewrite(
  input: Readable,
  output: Writable,
  limits: typeof EXPORT_LIMITS,
  progress: () => void,
): Promise<ExportSummary> {
  const summary: ExportSummary = { sheets: 0, rows: 0, blankedColumns: [], datedColumns: [] };
  // Loaded on the first export, not at every gateway start (exceljs takes ~0.3–1.5 s to load).
  const { stream } = (await import('exceljs')).default;
  const reader = new stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  const writer = new stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  writer.creator = 'WBS';
  writer.lastModifiedBy = 'WBS';
  const styles = styleCache();
  for await (const sheetReader of reader as AsyncIterable<StreamSheetReader>) {
    summary.sheets += 1;
    const sheet = writer.addWorksheet(sheetReader.name ?? `Sheet${summary.sheets}`, {
      headerFooter: { oddHeader: IDENTITY_WITHHELD_NOTE, evenHeader: IDENTITY_WITHHELD_NOTE },
    });
    let roles: ColumnRole[] | null = null;
    let lastRow = 0;
    for await (const row of sheetReader) {
      summary.rows += 1;
      progress();
      if (summary.rows > limits.rows) throw new UnreadableWorkbook(`more than ${limits.rows} rows`);
      // The writer can only append: a row out of order would be lost or make an invalid sheet.
      if (row.number <= lastRow) throw new UnreadableWorkbook('rows out of order');
      lastRow = row.number;
      const out = sheet.getRow(row.number);
      const isHeader = roles === null && isHeaderRow(row);
      if (isHeader) roles = headerRoles(row, limits, summary);
      row.eachCell({ includeEmpty: false }, (cell, column) => {
        if (column > limits.columns) throw new UnreadableWorkbook(`more than ${limits.columns} columns`);
        const role = isHeader ? 'keep' : (roles?.[column] ?? 'keep');
        const target = out.getCell(column);
        let value = role === 'identity' ? null : plainValue(cell.value);
        if (role === 'date') value = dateValue(value);
        target.style = styles.of(cell.style, value instanceof Date && role === 'date');
        if (role === 'identity') return;
        target.value = value;
        if (isHeader && roles?.[column] === 'identity') target.note = IDENTITY_WITHHELD_NOTE;
      });
      out.commit();
      // Committed rows wait as XML until the zip reads them, and reading the input alone never lets
      // it: a pause now and then keeps that backlog to a few rows, not the whole sheet.
      if (row.number % YIELD_EVERY_ROWS === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    sheet.commit();
  }
  if (summary.sheets === 0) throw new UnreadableWorkbook('no worksheet');
  await writer.commit();
  return summary;
}

const YIELD_EVERY_ROWS = 200;

/**
 * One shared style object per distinct style: the reader makes a new object for every cell, and the
 * writer's style registry is only fast for an object it has seen (it serialises unknown ones).
 */
function styleCache() {
  const known = new Map<string, Partial<ExcelJS.Style>>();
  return {
    of(style: Partial<ExcelJS.Style>, asDate: boolean): Partial<ExcelJS.Style> {
      const key = `${asDate ? 'd' : 'k'}${JSON.stringify(style)}`;
      let shared = known.get(key);
      if (!shared) {
        shared = asDate ? { ...style, numFmt: DATE_FORMAT } : { ...style };
        known.set(key, shared);
      }
      return shared;
    },
  };
}

/**
 * The header row is the first row naming a column the gateway knows exactly (a title row above it, or
 * none at all, is passed as it is): a report's text that merely mentions "pelapor" does not make a row
 * the header.
 */
function isHeaderRow(row: ExcelJS.Row): boolean {
  let found = false;
  row.eachCell({ includeEmpty: false }, (cell) => {
    const key = headerKey(headerText(cell.value));
    if (IDENTITY_HEADERS.has(key) || EXPORT_HEADERS.has(key)) found = true;
  });
  return found;
}

function headerRoles(row: ExcelJS.Row, limits: typeof EXPORT_LIMITS, summary: ExportSummary): ColumnRole[] {
  const roles: ColumnRole[] = [];
  row.eachCell({ includeEmpty: false }, (cell, column) => {
    if (column > limits.columns) throw new UnreadableWorkbook(`more than ${limits.columns} columns`);
    const header = headerText(cell.value).trim();
    roles[column] = roleOf(header);
    if (roles[column] === 'identity') summary.blankedColumns.push(header);
    if (roles[column] === 'date') summary.datedColumns.push(header);
  });
  return roles;
}
