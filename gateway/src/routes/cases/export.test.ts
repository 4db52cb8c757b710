/**
 * POST /cases/export when the legacy's workbook is not what legacy-sim writes: text dates, formulas,
 * hostile strings, damage. legacy-sim answers everything (sign-in, scope); an undici MockAgent in front
 * of it plays the legacy's export reply.
 */
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createLegacySim, demoAccounts } from '@wbs/legacy-sim';
import { latestIndonesianToday } from '@wbs/shared/api/cases';
import ExcelJS from 'exceljs';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { DATE_FORMAT, IDENTITY_WITHHELD_NOTE } from '../../presenters/export-workbook.ts';
import { browser, signIn, TEST_KEY, TEST_SECRET } from '../../test/helpers.ts';

const EXPORT_PATH = '/api/WBSCase/Company/Admin/Export';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let legacy: Awaited<ReturnType<typeof createLegacySim>>;
let agent: MockAgent;
let app: Awaited<ReturnType<typeof buildApp>>;
let cookie: string;
const logs: Record<string, unknown>[] = [];

beforeAll(async () => {
  legacy = await createLegacySim({});
  agent = new MockAgent();
  // Everything but the intercepted export goes on to legacy-sim.
  agent.enableNetConnect();
  const config = loadConfig({
    SESSION_SECRET: TEST_SECRET,
    SESSION_ENCRYPTION_KEY: TEST_KEY,
    LEGACY_API_URL: legacy.apiUrl,
    LEGACY_TIMEOUT_MS: '5000',
    LOG_LEVEL: 'info',
    STORE_DATA_DIR: 'memory://',
    // What the export writes is this file's subject; the step-up before it has its own tests.
    SECOND_FACTOR_TYPES: 'none',
  });
  const { Writable } = await import('node:stream');
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  app = await buildApp({ config, legacyDispatcher: agent, logStream });
  await app.ready();
  const account = demoAccounts.find((a) => a.username === 'admin.kahuripan')!;
  cookie = await signIn(app, account.username, account.password);
});
afterAll(async () => {
  await app.close();
  await agent.close();
  await legacy.close();
});

function legacyReplies(body: Buffer | string, headers: Record<string, string> = {}) {
  agent
    .get(new URL(legacy.apiUrl).origin)
    .intercept({ path: EXPORT_PATH, method: 'POST' })
    .reply(200, body, {
      headers: {
        'content-type': XLSX,
        'content-disposition': 'attachment; filename="AllCases - 2026-11-21 09.58.26.xlsx"',
        ...headers,
      },
    });
}

const exportCases = () =>
  app.inject({
    method: 'POST',
    url: '/api/v1/cases/export',
    headers: browser(cookie),
    payload: { from: '2020-01-01', to: latestIndonesianToday() },
  });

async function exportSpools(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith(`wbs-upload-${process.pid}-`));
}

describe('POST /cases/export against a legacy that writes otherwise', () => {
  it('rewrites text dates, formulas, identities and hostile strings', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Laporan');
    sheet.addRow(['No', 'Tanggal', 'Nomor Laporan', 'Nama Pelapor', 'Email Pelapor', 'Kejadian']);
    sheet.addRow([
      1,
      '2026-11-21T09:58:26',
      '=HYPERLINK("http://evil.test","WBS-1")',
      'Budi',
      'b@x.id',
      '+1',
    ]);
    sheet.addRow([
      2,
      '2026-11-20T23:59:59',
      { formula: 'CONCAT("WBS-","2")', result: 'WBS-2' },
      'Siti',
      '',
      '@SUM(1)',
    ]);
    legacyReplies(Buffer.from(await book.xlsx.writeBuffer()));

    const res = await exportCases();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toContain('filename="AllCases - 2026-11-21 09.58.26.xlsx"');
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    const out = new ExcelJS.Workbook();
    await out.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const got = out.getWorksheet('Laporan')!;
    expect(got.getCell('B2').value).toEqual(new Date(Date.UTC(2026, 10, 21, 9, 58, 26)));
    expect(got.getCell('B3').value).toEqual(new Date(Date.UTC(2026, 10, 20, 23, 59, 59)));
    expect(got.getCell('B2').numFmt).toBe(DATE_FORMAT);
    expect(got.getCell('C2').value).toBe('=HYPERLINK("http://evil.test","WBS-1")');
    expect(got.getCell('C2').type).toBe(ExcelJS.ValueType.String);
    expect(got.getCell('C3').value).toBe('WBS-2');
    expect(got.getCell('C3').formula).toBeUndefined();
    expect(got.getCell('D2').value).toBeNull();
    expect(got.getCell('E2').value).toBeNull();
    expect(got.getCell('D1').note).toBe(IDENTITY_WITHHELD_NOTE);
    expect(got.getCell('F2').value).toBe('+1');
    expect(got.getCell('F3').value).toBe('@SUM(1)');
    expect(logs.filter((l) => l.audit === true && l.event === 'export')).toHaveLength(1);
    expect(await exportSpools()).toEqual([]);
  });

  it('answers a damaged or foreign reply with 502 legacy-bad-reply and an ops line, never the bytes', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Laporan').addRow(['No', 'Nama Pelapor']);
    for (let i = 0; i < 300; i += 1) book.getWorksheet('Laporan')!.addRow([i, `Pelapor rahasia ${i}`]);
    const good = Buffer.from(await book.xlsx.writeBuffer());
    const replies = [
      good.subarray(0, Math.floor(good.length / 2)),
      '<html><body>Server Error in /WBS</body></html>',
      '',
    ];
    for (const body of replies) {
      const before = logs.length;
      legacyReplies(body);
      const res = await exportCases();
      expect(res.statusCode).toBe(502);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json().type).toMatch(/legacy-bad-reply$/);
      expect(res.body).not.toContain('Pelapor rahasia');
      const lines = logs.slice(before);
      expect(lines.find((l) => l.msg === 'legacy bad reply')).toMatchObject({
        legacyCall: expect.any(String),
        reason: expect.stringMatching(/^unreadable export/),
      });
      expect(JSON.stringify(lines)).not.toContain('Pelapor rahasia');
      expect(lines.some((l) => l.audit === true)).toBe(false);
    }
    expect(await exportSpools()).toEqual([]);
  });

  it('keeps the legacy failure mapping: a legacy 500 is a 502, no spool left', async () => {
    agent
      .get(new URL(legacy.apiUrl).origin)
      .intercept({ path: EXPORT_PATH, method: 'POST' })
      .reply(500, 'boom');
    const res = await exportCases();
    expect(res.statusCode).toBe(502);
    expect(res.json().type).toMatch(/legacy-bad-reply$/);
    expect(await exportSpools()).toEqual([]);
  });
});
