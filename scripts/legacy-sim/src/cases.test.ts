import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LegacySim } from './index.ts';
import { demoCases } from './seed/demo-accounts.ts';
import { MAP_DEMO_CASES, SEED_CASE_COUNT, SEED_STATUS } from './seed/seed.ts';

/** Every seeded case: the generated ones and Peta Laporan's demo reports after them. */
const SEEDED = SEED_CASE_COUNT + MAP_DEMO_CASES.length;

import { addFile, call, caseForm, login, PNG, startSim } from './test/helpers.ts';

let sim: LegacySim;
let partner: string;
let company: string;
let staff: string;
let pelapor: string;
beforeAll(async () => {
  sim = await startSim();
  partner = (await login(sim, 'holding')).token;
  company = (await login(sim, 'admin.kahuripan')).token;
  staff = (await login(sim, 'analis.direksi')).token;
  pelapor = (await login(sim, 'pelapor')).token;
});
afterAll(() => sim.close());

const PDF = Buffer.from('%PDF-1.4\n%%EOF\n');
const ROW_KEYS = [
  'caseId',
  'caseNumber',
  'caseCreated',
  'caseCompanyId',
  'caseCompany',
  'caseCaseCategory',
  'caseCaseLine',
  'caseCaseStatus',
];

describe('case creation', () => {
  it('guest files through /WBSCase/Whistleblower and tracks it by number', async () => {
    const form = caseForm({ casePassword: 'Rahasia#123', caseConfirmPassword: 'Rahasia#123' });
    addFile(form, 'caseFile', 'bukti.png', PNG, 'image/png');
    addFile(form, 'attachments', 'lampiran-1.pdf', PDF, 'application/pdf');
    addFile(form, 'attachments', 'lampiran-2.pdf', PDF, 'application/pdf');
    const created = await call(sim, 'POST', '/WBSCase/Whistleblower', { form });
    expect(created.status).toBe(200);
    expect(created.json.code).toBe(1);
    expect(created.json.message[0]).toBe('Pengaduan berhasil dibuat');
    const number = created.json.message[1];
    expect(number).toMatch(/^WBS-\d{8}$/);
    expect(created.json.data).toEqual({ caseId: expect.any(Number), caseNumber: number });

    const tracked = await call(sim, 'POST', '/WBSCase/Whistleblower/byNumber', {
      body: { caseNumber: number, password: 'Rahasia#123' },
    });
    expect(tracked.json.code).toBe(1);
    const d = tracked.json.data;
    expect(d).toMatchObject({
      caseNumber: number,
      caseCompanyId: 1,
      caseCaseStatusId: 1,
      caseCaseStatus: { caseStatusName: 'Baru', caseStatusOrder: 1 },
      caseChannelId: 1,
      caseCaseLineId: null,
      caseCaseLine: null,
      caseWhistleblowerName: 'Andi Saksi',
      caseWhistleblowerCommunicationType: '0,2',
      caseProvince: { provinceName: 'Jawa Barat' },
      caseCity: { cityName: expect.any(String) },
      caseDistrict: { districtName: expect.any(String) },
      caseCaseCategory: {
        caseCategoryName: 'Korupsi',
        caseCategoryCaseCategoryGroup: { caseCategoryGroupName: expect.any(String) },
      },
      allegedlyinvolveds: [
        {
          allegedlyInvolvedName: 'Budi',
          allegedlyInvolvedPosition: 'Kepala Seksi',
          allegedlyInvolvedDescription: 'Pengadaan',
        },
      ],
    });
    expect(d.attachments.map((a: { attachmentName: string }) => a.attachmentName)).toEqual([
      'bukti.png',
      'lampiran-1.pdf',
      'lampiran-2.pdf',
    ]);
    expect(d.caselogs).toEqual([]);
    expect(JSON.stringify(d)).not.toContain('Rahasia#123');
    expect(JSON.stringify(d)).not.toContain('scrypt');

    const wrong = await call(sim, 'POST', '/WBSCase/Whistleblower/byNumber', {
      body: { caseNumber: number, password: 'salah-salah' },
    });
    const unknown = await call(sim, 'POST', '/WBSCase/Whistleblower/byNumber', {
      body: { caseNumber: 'WBS-00000000', password: 'Rahasia#123' },
    });
    expect(wrong.json).toEqual({ code: 0, message: ['Nomor pengaduan atau kata sandi salah'], data: null });
    expect(unknown.json).toEqual(wrong.json);
  });

  it('guest filing validates passwords, files and fields', async () => {
    const noPassword = caseForm();
    addFile(noPassword, 'caseFile', 'bukti.png', PNG);
    expect((await call(sim, 'POST', '/WBSCase/Whistleblower', { form: noPassword })).json.message).toEqual([
      'Kata sandi wajib diisi',
    ]);
    const mismatch = caseForm({ casePassword: 'Rahasia#123', caseConfirmPassword: 'Rahasia#124' });
    addFile(mismatch, 'caseFile', 'bukti.png', PNG);
    expect((await call(sim, 'POST', '/WBSCase/Whistleblower', { form: mismatch })).json.message).toEqual([
      'Konfirmasi kata sandi tidak sama',
    ]);
    const noFile = caseForm({
      casePassword: 'Rahasia#123',
      caseConfirmPassword: 'Rahasia#123',
      caseWhat: '',
    });
    const r = await call(sim, 'POST', '/WBSCase/Whistleblower', { form: noFile });
    expect(r.json.code).toBe(0);
    expect(r.json.message).toEqual([
      'Mohon isi kejadian apa yang ingin dilaporkan',
      'Bukti Pendukung wajib diisi',
    ]);
    const tooMany = caseForm({ casePassword: 'Rahasia#123', caseConfirmPassword: 'Rahasia#123' });
    addFile(tooMany, 'caseFile', 'bukti.png', PNG);
    for (let i = 0; i < 5; i++) addFile(tooMany, 'attachments', `l${i}.pdf`, PDF);
    expect((await call(sim, 'POST', '/WBSCase/Whistleblower', { form: tooMany })).json).toMatchObject({
      code: 0,
      message: ['Lampiran tidak boleh melebihi 5'],
    });
    const big = caseForm({ casePassword: 'Rahasia#123', caseConfirmPassword: 'Rahasia#123' });
    addFile(big, 'caseFile', 'besar.pdf', Buffer.alloc(10_485_761));
    expect((await call(sim, 'POST', '/WBSCase/Whistleblower', { form: big })).json).toMatchObject({
      code: 0,
      message: ['Ukuran file besar.pdf melebihi 10 MB'],
    });
    const badInvolved = caseForm({
      casePassword: 'Rahasia#123',
      caseConfirmPassword: 'Rahasia#123',
      allegedlyinvolveds: '[{"allegedlyInvolvedName":"X"}]',
    });
    addFile(badInvolved, 'caseFile', 'bukti.png', PNG);
    expect((await call(sim, 'POST', '/WBSCase/Whistleblower', { form: badInvolved })).json.message).toEqual([
      'Posisi pihak terkait wajib diisi di baris 1',
    ]);
  });

  it('anonymous filing needs only type, e-mail and phone for the reporter', async () => {
    const form = caseForm({
      caseWhistleblowerIsAnonym: '1',
      caseAnonym: '1',
      caseWhistleblowerName: '',
      caseWhistleblowerAddress: '',
      caseWhistleblowerProvinceId: '0',
      casePassword: 'Rahasia#123',
      caseConfirmPassword: 'Rahasia#123',
    });
    addFile(form, 'caseFile', 'bukti.png', PNG);
    const created = await call(sim, 'POST', '/WBSCase/Whistleblower', { form });
    expect(created.json.code).toBe(1);
  });

  it('partner and company endpoints need a token and store no password', async () => {
    const partnerForm = caseForm({ caseCompanyId: '2', caseCaseCategoryId: '10', caseChannelId: '4' });
    addFile(partnerForm, 'caseFile', 'bukti.png', PNG);
    expect((await call(sim, 'POST', '/WBSCase/Partner', { form: partnerForm })).status).toBe(401);
    const p = await call(sim, 'POST', '/WBSCase/Partner', { form: partnerForm, token: partner });
    expect(p.json.code).toBe(1);
    const detail = await call(sim, 'GET', `/WBSCase/company/2/${p.json.data.caseId}`, { token: partner });
    expect(detail.json.data).toMatchObject({
      caseCompanyId: 2,
      caseChannelId: 4,
      caseChannel: { channelName: 'WhatsApp' },
      caseCaseStatusId: 1,
    });
    expect(
      (await call(sim, 'GET', `/WBSCase/company/1/${p.json.data.caseId}`, { token: partner })).json.code,
    ).toBe(0);
    const companyForm = caseForm();
    addFile(companyForm, 'caseFile', 'bukti.pdf', PDF);
    addFile(companyForm, 'attachments', 'foto.png', PNG);
    const c = await call(sim, 'POST', '/WBSCase/Company', { form: companyForm, token: company });
    expect(c.json.message[1]).toMatch(/^WBS-\d{8}$/);
    const track = await call(sim, 'POST', '/WBSCase/Whistleblower/byNumber', {
      body: { caseNumber: c.json.message[1], password: '' },
    });
    expect(track.json.code).toBe(0);
  });

  it('a signed-in pelapor files through the whistleblower endpoint and sees it in its table', async () => {
    const form = caseForm();
    addFile(form, 'caseFile', 'bukti.png', PNG);
    const created = await call(sim, 'POST', '/WBSCase/Whistleblower', { form, token: pelapor });
    expect(created.json.code).toBe(1);
    const t = await call(sim, 'POST', '/WBSCase/whistleblower/1/0', {
      token: pelapor,
      body: { draw: 1, start: 0, length: 100 },
    });
    expect(t.json.data.some((r: { caseNumber: string }) => r.caseNumber === created.json.message[1])).toBe(
      true,
    );
  });

  it('POST and PUT /WBSCase (JSON)', async () => {
    const fields = Object.fromEntries([...caseForm().entries()].map(([k, v]) => [k, String(v)]));
    const created = await call(sim, 'POST', '/WBSCase', { token: company, body: fields });
    expect(created.json.code).toBe(1);
    const caseId = created.json.data.caseId;
    const updated = await call(sim, 'PUT', '/WBSCase', {
      token: company,
      body: { caseId, caseCompanyId: 1, caseTitle: 'Judul baru', caseChannelId: 2 },
    });
    expect(updated.json.data).toMatchObject({ caseTitle: 'Judul baru', caseChannelId: 2 });
  });

  it('PUT /WBSCase/Whistleblower updates contact details of a tracked case', async () => {
    const demo = demoCases[0];
    const r = await call(sim, 'PUT', '/WBSCase/Whistleblower', {
      body: {
        caseNumber: demo.caseNumber,
        password: demo.password,
        caseWhistleblowerContactNum: '+62811111',
      },
    });
    expect(r.json.code).toBe(1);
    const d = await call(sim, 'POST', '/WBSCase/Whistleblower/byNumber', {
      body: { caseNumber: demo.caseNumber, password: demo.password },
    });
    expect(d.json.data.caseWhistleblowerContactNum).toBe('+62811111');
  });
});

describe('logs, attachments, downloads', () => {
  it('saves a log that updates status and line, with an attachment to download', async () => {
    const demo = demoCases[0];
    const before = (
      await call(sim, 'POST', '/WBSCase/Whistleblower/byNumber', {
        body: { caseNumber: demo.caseNumber, password: demo.password },
      })
    ).json.data;
    expect(before.caseCaseStatusId).toBe(1);
    const missing = new FormData();
    missing.append('caseId', String(before.caseId));
    missing.append('caseCompanyId', '1');
    missing.append('caseCaseLineId', 'null');
    const invalid = await call(sim, 'POST', '/WBSCase/CaseLog', { token: company, form: missing });
    expect(invalid.json.message).toEqual([
      'Status pengaduan wajib diisi',
      'Jalur Otorisasi wajib diisi',
      'Catatan Aktivitas wajib diisi',
    ]);
    const form = new FormData();
    form.append('caseId', String(before.caseId));
    form.append('caseCompanyId', '1');
    form.append('messageLog', 'Diteruskan ke jalur direksi');
    form.append('caseCaseLineId', '1');
    form.append('caseCaseStatusId', '11');
    addFile(form, 'Attachment', 'notulen.pdf', PDF, 'application/pdf');
    const saved = await call(sim, 'POST', '/WBSCase/CaseLog', { token: staff, form });
    expect(saved.json.code).toBe(1);
    const after = (await call(sim, 'GET', `/WBSCase/partner/${before.caseId}`, { token: partner })).json.data;
    expect(after).toMatchObject({
      caseCaseStatusId: 11,
      caseCaseLineId: 1,
      caseCaseLine: { caseLineName: 'Jalur Direksi' },
    });
    const log = after.caselogs.at(-1);
    expect(log).toMatchObject({
      caseLogCaseStatus: { caseStatusName: 'Diterima' },
      caseLogMessage: 'Diteruskan ke jalur direksi',
      caseLogAttachmentName: 'notulen.pdf',
      caseLogCreatedBy: 'Bambang Suryadi',
      caseLogCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
    const file = await fetch(`${sim.apiUrl}/WBSCase/DownloadCaseLogAttachement/1/${log.caseLogId}`, {
      headers: { authorization: `Bearer ${staff}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain('notulen.pdf');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PDF);
    // 'null' line keeps the line
    const next = new FormData();
    for (const [k, v] of Object.entries({
      caseId: String(before.caseId),
      caseCompanyId: '1',
      messageLog: 'Verifikasi',
      caseCaseLineId: 'null',
      caseCaseStatusId: '12',
    }))
      next.append(k, v);
    expect((await call(sim, 'POST', '/WBSCase/CaseLog', { token: staff, form: next })).json.code).toBe(1);
    expect(
      (await call(sim, 'GET', `/WBSCase/partner/${before.caseId}`, { token: partner })).json.data,
    ).toMatchObject({ caseCaseStatusId: 12, caseCaseLineId: 1 });
  });

  it('adds attachments up to 5 in total and downloads them', async () => {
    const form = caseForm();
    addFile(form, 'caseFile', 'bukti.png', PNG, 'image/png');
    const created = (await call(sim, 'POST', '/WBSCase/Company', { form, token: company })).json.data;
    const more = new FormData();
    more.append('CaseId', String(created.caseId));
    more.append('CaseCompanyId', '1');
    for (let i = 1; i <= 4; i++) addFile(more, 'attachments', `tambahan-${i}.pdf`, PDF);
    const added = await call(sim, 'POST', '/WBSCase/Attachment', { token: company, form: more });
    expect(added.json.code).toBe(1);
    expect(added.json.data).toHaveLength(5);
    const full = new FormData();
    full.append('CaseId', String(created.caseId));
    full.append('CaseCompanyId', '1');
    addFile(full, 'attachments', 'lagi.pdf', PDF);
    expect(
      (await call(sim, 'POST', '/WBSCase/Attachment', { token: company, form: full })).json,
    ).toMatchObject({ code: 0, message: ['Lampiran sudah mencapai batas maksimal'] });
    const first = added.json.data[0];
    const res = await fetch(`${sim.apiUrl}/WBSCase/DownloadAttachement/1/${first.attachmentId}`, {
      headers: { authorization: `Bearer ${company}` },
    });
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="bukti.png"; filename*=UTF-8''bukti.png`,
    );
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
    const wrongCompany = await call(sim, 'GET', `/WBSCase/DownloadAttachement/2/${first.attachmentId}`, {
      token: company,
    });
    expect(wrongCompany.status).toBe(404);
    expect(wrongCompany.json).toMatchObject({ code: -1 });
    expect(
      (await call(sim, 'GET', '/WBSCase/DownloadCaseLogAttachement/1/999999', { token: company })).status,
    ).toBe(404);
  });

  it('seeded attachments are real PNG/PDF bytes', async () => {
    const d = (await call(sim, 'GET', '/WBSCase/partner/5', { token: partner })).json.data;
    const res = await fetch(
      `${sim.apiUrl}/WBSCase/DownloadAttachement/${d.caseCompanyId}/${d.attachments[0].attachmentId}`,
      { headers: { authorization: `Bearer ${partner}` } },
    );
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toMatch(/^(\x89PNG|%PDF)$/);
  });
});

describe('tables', () => {
  it('pages, orders and filters the partner table', async () => {
    await sim.reset();
    const all = await call(sim, 'POST', '/WBSCase/partner/1/0', {
      token: partner,
      body: { draw: 7, start: 0, length: 10 },
    });
    expect(all.json).toMatchObject({
      code: 1,
      draw: 7,
      recordsTotal: SEEDED,
      recordsFiltered: SEEDED,
    });
    expect(all.json.data).toHaveLength(10);
    expect(Object.keys(all.json.data[0])).toEqual(expect.arrayContaining(ROW_KEYS));
    const dates = all.json.data.map((r: { caseCreated: string }) => r.caseCreated);
    expect([...dates].sort().reverse()).toEqual(dates);
    const page2 = await call(sim, 'POST', '/WBSCase/partner/1/0', {
      token: partner,
      body: { draw: 1, start: 10, length: 10 },
    });
    expect(page2.json.data[0].caseId).not.toBe(all.json.data[0].caseId);
    const asc = await call(sim, 'POST', '/WBSCase/partner/1/0', {
      token: partner,
      body: { draw: 1, start: 0, length: 5, order: [{ column: 2, dir: 'asc' }] },
    });
    const numbers = asc.json.data.map((r: { caseNumber: string }) => r.caseNumber);
    expect([...numbers].sort()).toEqual(numbers);
    const byName = await call(sim, 'POST', '/WBSCase/partner/1/0', {
      token: partner,
      body: { draw: 1, start: 0, length: 5, order: { column: 'caseId', dir: 'desc' } },
    });
    expect(byName.json.data[0].caseId).toBe(SEEDED);
    const company2 = await call(sim, 'POST', '/WBSCase/partner/1/2', {
      token: partner,
      body: { draw: 1, start: 0, length: 500 },
    });
    expect(company2.json.data.every((r: { caseCompanyId: number }) => r.caseCompanyId === 2)).toBe(true);
    const filtered = await call(sim, 'POST', '/WBSCase/partner/1/0', {
      token: partner,
      body: { draw: 1, start: 0, length: 500, caseCaseStatusId: 11, caseCompanyId: 1 },
    });
    expect(filtered.json.recordsFiltered).toBe(filtered.json.data.length);
    expect(
      filtered.json.data.every(
        (r: { caseCaseStatus: { caseStatusId: number }; caseCompanyId: number }) =>
          r.caseCaseStatus.caseStatusId === 11 && r.caseCompanyId === 1,
      ),
    ).toBe(true);
    const one = await call(sim, 'POST', '/WBSCase/partner/1/0', {
      token: partner,
      body: { draw: 1, start: 0, length: 10, caseNumber: demoCases[1].caseNumber },
    });
    expect(one.json.data.map((r: { caseNumber: string }) => r.caseNumber)).toEqual([demoCases[1].caseNumber]);
    const searched = await call(sim, 'POST', '/WBSCase/partner/1/0', {
      token: partner,
      body: { draw: 1, start: 0, length: 10, search: { value: demoCases[2].caseNumber } },
    });
    expect(searched.json.recordsFiltered).toBe(1);
  });

  it('filters by date range, category and line', async () => {
    const now = new Date();
    const ymd = (d: Date) =>
      `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}`;
    const from = new Date(now.getTime() - 30 * 86_400_000);
    const ranged = await call(sim, 'POST', '/WBSCase/company/admin/1', {
      token: company,
      body: {
        draw: 1,
        start: 0,
        length: 500,
        rangeDate: `${ymd(from)}-${ymd(new Date(now.getTime() + 86_400_000))}`,
      },
    });
    const total = await call(sim, 'POST', '/WBSCase/company/admin/1', {
      token: company,
      body: { draw: 1, start: 0, length: 500 },
    });
    expect(ranged.json.recordsFiltered).toBeGreaterThan(0);
    expect(ranged.json.recordsFiltered).toBeLessThan(total.json.recordsFiltered);
    const cat = await call(sim, 'POST', '/WBSCase/company/admin/1', {
      token: company,
      body: { draw: 1, start: 0, length: 500, caseCaseCategoryId: 1 },
    });
    expect(
      cat.json.data.every(
        (r: { caseCaseCategory: { caseCategoryName: string } }) =>
          r.caseCaseCategory.caseCategoryName === 'Korupsi',
      ),
    ).toBe(true);
    const line = await call(sim, 'POST', '/WBSCase/company/admin/1', {
      token: company,
      body: { draw: 1, start: 0, length: 500, caseCaseLineId: 2 },
    });
    expect(
      line.json.data.every(
        (r: { caseCaseLine: { caseLineName: string } }) =>
          r.caseCaseLine.caseLineName === 'Jalur Dewan Pengawas',
      ),
    ).toBe(true);
  });

  it('staff table holds their line or no line yet', async () => {
    const t = await call(sim, 'POST', '/WBSCase/company/staff/1', {
      token: staff,
      body: { draw: 1, start: 0, length: 500 },
    });
    expect(t.json.data.length).toBeGreaterThan(0);
    for (const r of t.json.data) {
      expect(r.caseCompanyId).toBe(1);
      expect(r.caseCaseLine === null || r.caseCaseLine.caseLineName === 'Jalur Direksi').toBe(true);
    }
  });
});

describe('export', () => {
  it.each([
    ['/WBSCase/Company/Admin/Export', { caseCompanyId: 1 }],
    ['/WBSCase/Company/Staff/Export', { companyStaffId: 1 }],
    ['/WBSCase/Partner/Export', { partnerId: 1, caseCompanyId: 0 }],
  ])('%s returns a real xlsx with one row per case', async (path, scope) => {
    const filters = {
      rangeDate: '',
      caseNumber: '',
      caseCaseCategoryId: 0,
      caseCaseLineId: 0,
      caseCaseStatusId: 0,
      ...scope,
    };
    const res = await fetch(`${sim.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${partner}`, 'content-type': 'application/json' },
      body: JSON.stringify(filters),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="AllCases - \d{4}-\d\d-\d\d \d\d\.\d\d\.\d\d\.xlsx"$/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(3).value).toBe('Nomor Laporan');
    const table = await call(
      sim,
      'POST',
      path.includes('Staff')
        ? '/WBSCase/company/staff/1'
        : path.includes('Admin')
          ? '/WBSCase/company/admin/1'
          : '/WBSCase/partner/1/0',
      { token: partner, body: { draw: 1, start: 0, length: 1 } },
    );
    expect(sheet.rowCount - 1).toBe(table.json.recordsTotal);
    // Tanggal is a real date cell shown DD/MM/YYYY, holding the WIB wall time (newest case first).
    const date = sheet.getRow(2).getCell(2);
    expect(date.value).toBeInstanceOf(Date);
    expect(date.numFmt).toBe('dd/mm/yyyy');
    expect((date.value as Date).toISOString().slice(0, 19)).toBe(table.json.data[0].caseCreated);
  });
});

describe('dashboards', () => {
  it('partner and company summaries add up to the stored cases', async () => {
    const q = (companyId: number) => `?partnerId=1&companyId=${companyId}&DatePeriodRange=`;
    const summary = (await call(sim, 'GET', `/PartnerDashboard/Summary${q(0)}`, { token: partner })).json
      .data;
    expect(summary).toHaveLength(3);
    expect(Object.keys(summary[0])).toEqual(['companyId', 'companyName', 'totalCase']);
    const sum = (rows: { totalCase: number }[]) => rows.reduce((n, r) => n + r.totalCase, 0);
    expect(sum(summary)).toBe(SEEDED);
    expect(
      sum((await call(sim, 'GET', `/PartnerDashboard/SummaryStatus${q(0)}`, { token: partner })).json.data),
    ).toBe(SEEDED);
    expect(
      sum((await call(sim, 'GET', `/PartnerDashboard/SummaryCategory${q(0)}`, { token: partner })).json.data),
    ).toBe(SEEDED);
    for (const c of summary) {
      const company = (
        await call(sim, 'GET', `/CompanyDashboard/Summary?companyId=${c.companyId}`, { token: partner })
      ).json.data;
      expect(company).toEqual({ companyId: c.companyId, companyName: c.companyName, totalCase: c.totalCase });
      const statuses = (
        await call(sim, 'GET', `/CompanyDashboard/SummaryStatus?companyId=${c.companyId}`, { token: partner })
      ).json.data;
      expect(Object.keys(statuses[0])).toEqual(['caseStatusId', 'caseStatusName', 'totalCase']);
      expect(sum(statuses)).toBe(c.totalCase);
      const categories = (
        await call(sim, 'GET', `/CompanyDashboard/SummaryCategory?companyId=${c.companyId}`, {
          token: partner,
        })
      ).json.data;
      expect(Object.keys(categories[0])).toEqual(['caseCategoryId', 'caseCategoryName', 'totalCase']);
      expect(sum(categories)).toBe(c.totalCase);
      const open = (
        await call(sim, 'GET', `/CompanyDashboard/SummaryOpenCases?companyId=${c.companyId}`, {
          token: partner,
        })
      ).json.data;
      const finals = statuses.filter(
        (s: { caseStatusId: number }) =>
          s.caseStatusId === SEED_STATUS.REJECTED || s.caseStatusId === SEED_STATUS.CLOSED,
      );
      const openTotal = open.reduce(
        (n: number, cat: { values: { totalCases: number }[] }) =>
          n + cat.values.reduce((m, v) => m + v.totalCases, 0),
        0,
      );
      expect(openTotal).toBe(c.totalCase - sum(finals));
      expect(open[0]).toMatchObject({
        caseCategoryName: expect.any(String),
        values: expect.arrayContaining([
          { caseStatusId: 1, caseStatusName: 'Baru', totalCases: expect.any(Number) },
        ]),
      });
      const partnerOpen = (
        await call(sim, 'GET', `/PartnerDashboard/SummaryOpenCases?companyId=${c.companyId}`, {
          token: partner,
        })
      ).json.data;
      expect(partnerOpen).toEqual(open);
    }
  });

  it('applies DatePeriodRange', async () => {
    const ymd = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '/');
    const range = `${ymd(new Date(Date.now() - 40 * 86_400_000))}-${ymd(new Date(Date.now() + 86_400_000))}`;
    const recent = (
      await call(
        sim,
        'GET',
        `/CompanyDashboard/Summary?companyId=1&DatePeriodRange=${encodeURIComponent(range)}`,
        { token: company },
      )
    ).json.data;
    const all = (await call(sim, 'GET', '/CompanyDashboard/Summary?companyId=1', { token: company })).json
      .data;
    expect(recent.totalCase).toBeGreaterThan(0);
    expect(recent.totalCase).toBeLessThan(all.totalCase);
  });
});
