import { randomUUID } from 'node:crypto';
import { addDays, wibToday } from '@wbs/shared/handling-clock';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser, buildTestApp, signIn, signInAs, type TestApp } from '../../test/helpers.ts';
import {
  docxBytes,
  type FileSpec,
  guestAnonymousFields,
  identifiedGuestFields,
  jpegWithGps,
  legacyCase,
  legacyCaseCount,
  legacyDownload,
  legacyToken,
  legacyTrack,
  multipart,
  pdfBytes,
  pngBytes,
} from '../../test/uploads.ts';

let t: TestApp;
let pdf: Uint8Array;
let adminToken: string;
beforeAll(async () => {
  t = await buildTestApp();
  pdf = await pdfBytes();
});
afterAll(async () => t.close());
beforeEach(async () => {
  await t.legacy.reset();
  adminToken = await legacyToken(t.legacy.apiUrl, 'admin.kahuripan', 'Perusahaan#2026!');
});

const evidence = (name = 'bukti.pdf', bytes: Uint8Array = pdf): FileSpec => ({
  field: 'evidence',
  name,
  bytes,
});
const attachment = (name: string, bytes: Uint8Array = pdf): FileSpec => ({
  field: 'attachments',
  name,
  bytes,
});

async function submit(
  fields: Record<string, string>,
  files: FileSpec[],
  headers: Record<string, string> = {},
) {
  const body = await multipart(fields, files);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/cases',
    payload: body.payload,
    headers: { ...headers, ...body.headers },
  });
}

describe('POST /cases as a guest', () => {
  it('files an anonymous report with two files: 201, the number, the case and files in the legacy', async () => {
    const png = await pngBytes();
    const res = await submit(guestAnonymousFields(), [evidence(), attachment('foto.png', png)]);
    expect(res.statusCode).toBe(201);
    const reply = res.json();
    expect(reply.message).toBe('Pengaduan berhasil dibuat');
    expect(reply.caseNumber).toMatch(/^WBS-\d{8}$/);
    // The promise made at filing: the company's acknowledgement deadline (default 7 days), in WIB.
    expect(reply.respondBy).toBe(addDays(wibToday(), 7));

    const stored = await legacyTrack(t.legacy.apiUrl, reply.caseNumber, 'Pipa-Bocor-Gudang-7');
    expect(stored.caseCompanyId).toBe(1);
    expect(stored.caseWhistleblowerIsAnonym).toBe(1);
    expect(stored.caseWhistleblowerName).toBe('');
    expect(stored.caseWhistleblowerDept).toBe('');
    expect(stored.caseWhistleblowerAddress).toBe('');
    expect(stored.caseWhistleblowerProvinceId).toBeNull();
    expect(stored.attachments.map((a) => a.attachmentName)).toEqual(['bukti.pdf', 'foto.png']);
    const [first] = stored.attachments;
    const bytes = await legacyDownload(
      `${t.legacy.apiUrl}/WBSCase/DownloadAttachement/1/${first?.attachmentId}`,
      adminToken,
    );
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // The audit line says a case was created, never its number or anything about the reporter.
    expect(t.logs.some((line) => line.event === 'case-created')).toBe(true);
    const logText = JSON.stringify(t.logs);
    expect(logText).not.toContain(reply.caseNumber);
    expect(logText).not.toContain('pelapor@example.com');
    expect(logText).not.toContain('Pipa-Bocor-Gudang-7');
  });

  it('files an identified report with every field mapped to the legacy fields', async () => {
    const res = await submit(identifiedGuestFields(), [evidence()]);
    expect(res.statusCode).toBe(201);
    const stored = await legacyTrack(t.legacy.apiUrl, res.json().caseNumber, 'Pipa-Bocor-Gudang-7');
    expect(stored).toMatchObject({
      caseWhistleblowerName: 'Siti Aminah',
      caseWhistleblowerDept: 'Keuangan',
      caseWhistleblowerAddress: 'Jl. Merdeka 1',
      caseWhistleblowerProvinceId: 32,
      caseWhistleblowerCityId: 3201,
      caseWhistleblowerDistrictId: 320101,
      caseWhistleblowerType: 2,
      caseWhistleblowerEmail: 'pelapor@example.com',
      caseWhistleblowerContactNum: '+6281234567',
      caseWhistleblowerCommunicationType: '0,2',
      caseWhistleblowerCommunicationTime: 'Pagi hari',
      caseWhistleblowerIsAnonym: 0,
      caseChannelId: 1,
      caseCaseStatusId: 1,
      caseCaseCategoryId: 1,
      caseWhat: 'Pengadaan pipa digelembungkan',
      caseWhoInvolvedAndPosition: 'Staf gudang',
      caseWhatFinancialLoss: 'Rp 120 juta',
      caseWhoEverReportedToAndDetails: 'Atasan langsung',
      caseWhatPerpetratorTalkAndReponse: 'Menyangkal',
      caseWhatRepeatableCaseReason: 'Tidak ada pengawasan',
      caseWhatReasonReporterIdentification: 'Bersedia bersaksi',
      caseIsReporterNeedProtection: 0,
      caseEvidenceLink: 'https://drive.example/bukti',
    });
    expect(stored.allegedlyinvolveds).toEqual([
      expect.objectContaining({ allegedlyInvolvedName: 'Andi', allegedlyInvolvedPosition: 'Kepala Gudang' }),
    ]);
  });

  it('answers every missing wizard field with its section-5 message and the form field name', async () => {
    const empty = Object.fromEntries(Object.keys(identifiedGuestFields()).map((key) => [key, '']));
    const res = await submit({ ...empty, anonymous: 'false' }, []);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      reporterType: 'Identitas Pelapor wajib diisi',
      name: 'Nama wajib diisi',
      address: 'Alamat wajib diisi',
      provinceId: 'Provinsi wajib diisi',
      cityId: 'Kota wajib diisi',
      districtId: 'Kecamatan wajib diisi',
      email: 'Alamat Email Tidak Valid',
      phone: 'Nomor Telepon tidak valid',
      communicationTypes: 'Cara Komunikasi wajib pilih minimal 1',
      communicationTime: 'Waktu Komunikasi wajib diisi',
      categoryId: 'Kategori pengaduan wajib diisi',
      what: 'Mohon isi kejadian apa yang ingin dilaporkan',
      where: 'Mohon isi di mana kejadian ini terjadi',
      when: 'Mohon isi kapan kejadian ini terjadi',
      perpetrator: 'Mohon isi nama dan jabatan terlapor',
      directorate: 'Mohon isi Unit Direktorat',
      division: 'Mohon isi Unit Divisi',
      how: 'Mohon isi bagaimana kejadian ini terjadi',
      password: 'Kata sandi pengaduan wajib diisi',
      confirmPassword: 'Kata sandi pengaduan wajib diisi',
      evidence: 'Bukti Pendukung wajib diisi',
    });
  });

  it.each([
    [{ email: 'bukan-email' }, 'email', 'Alamat Email Tidak Valid'],
    [{ phone: '08-123' }, 'phone', 'Nomor Telepon tidak valid'],
    [{ phone: '12' }, 'phone', 'minimal 3 nomor.'],
    [{ reporterType: '3' }, 'reporterType', 'Identitas Pelapor wajib diisi'],
    [{ communicationTypes: '0,7' }, 'communicationTypes', 'Cara Komunikasi wajib pilih minimal 1'],
    [{ what: 'x'.repeat(501) }, 'what', 'Maksimal 500 Karakter'],
    [{ where: 'x'.repeat(256) }, 'where', 'Maksimal 255 Karakter'],
    [{ how: 'x'.repeat(501) }, 'how', 'Maksimal 500 Karakter'],
    [{ name: 'x'.repeat(51) }, 'name', 'Maksimal 50 Karakter'],
    [{ categoryId: '19' }, 'categoryId', 'Kategori pengaduan wajib diisi'],
    [
      { password: 'pendek', confirmPassword: 'pendek' },
      'password',
      'Kata sandi pengaduan minimal 10 karakter.',
    ],
    [
      { password: '1234567890', confirmPassword: '1234567890' },
      'password',
      'Kata sandi pengaduan terlalu mudah ditebak: jangan gunakan karakter yang berulang atau berurutan.',
    ],
    [
      { password: 'Rahasia#2026', confirmPassword: 'Rahasia#2026' },
      'password',
      'Kata sandi pengaduan ini termasuk kata sandi yang umum dipakai dan mudah ditebak. Gunakan kata sandi lain atau buat frasa sandi acak.',
    ],
    [{ confirmPassword: 'Lain#20266' }, 'confirmPassword', 'Konfirmasi kata sandi pengaduan tidak sama'],
  ])('refuses %o: %s → %s', async (override, field, message) => {
    const count = await legacyCaseCount(t.legacy.apiUrl, adminToken, 1);
    const res = await submit(identifiedGuestFields(override), [evidence()]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ [field]: message });
    expect(await legacyCaseCount(t.legacy.apiUrl, adminToken, 1)).toBe(count);
  });

  it('names every incomplete allegedly-involved row', async () => {
    const rows = [
      { name: 'Andi', position: 'Kepala Gudang' },
      { name: '', position: 'Staf' },
      { name: 'Budi', position: ' ' },
    ];
    const res = await submit(identifiedGuestFields({ allegedlyInvolved: JSON.stringify(rows) }), [
      evidence(),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'allegedlyInvolved.1.name': 'Nama pihak terkait wajib diisi di baris 2',
      'allegedlyInvolved.2.position': 'Posisi pihak terkait wajib diisi di baris 3',
    });
  });
});

describe('POST /cases attachments', () => {
  const refused = async (files: FileSpec[], status: number) => {
    const count = await legacyCaseCount(t.legacy.apiUrl, adminToken, 1);
    const res = await submit(guestAnonymousFields(), files);
    expect(res.statusCode).toBe(status);
    expect(await legacyCaseCount(t.legacy.apiUrl, adminToken, 1)).toBe(count);
    return res.json();
  };

  it('refuses an extension outside the list', async () => {
    const body = await refused([evidence(), attachment('alat.exe', pdf)], 400);
    expect(body.errors).toEqual({ attachments: 'Jenis file alat.exe tidak diizinkan' });
  });

  it('refuses content that does not match the extension (a PNG named .pdf, a program named .pdf)', async () => {
    const png = await pngBytes();
    const first = await refused([evidence('bukti.pdf', png)], 400);
    expect(first.errors).toEqual({ evidence: 'Isi file bukti.pdf tidak sesuai dengan jenisnya' });
    const program = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);
    program.write('PE\0\0', 128);
    program.writeUInt32LE(128, 0x3c);
    const second = await refused([evidence(), attachment('program.pdf', program)], 400);
    expect(second.errors).toEqual({ attachments: 'Isi file program.pdf tidak sesuai dengan jenisnya' });
  });

  it('answers 413 for 10 MB + 1 byte and creates nothing', async () => {
    const big = Buffer.alloc(10_485_761, 0x20);
    big.write('%PDF-1.7\n');
    const body = await refused([evidence('besar.pdf', big)], 413);
    expect(body.type).toMatch(/payload-too-large$/);
    expect(body.detail).toBe('Ukuran file besar.pdf melebihi 10 MB');
  });

  it('accepts exactly 10 MB', async () => {
    const exact = Buffer.alloc(10_485_760, 0x20);
    exact.write('%PDF-1.7\n');
    const res = await submit(guestAnonymousFields(), [evidence('pas.pdf', exact)]);
    expect(res.statusCode).toBe(201);
  });

  it('refuses duplicate file names', async () => {
    const body = await refused([evidence('a.pdf'), attachment('A.pdf')], 400);
    expect(body.errors).toEqual({ attachments: 'Lampiran A.pdf telah dipilih' });
  });

  it('refuses a sixth file', async () => {
    const files = [evidence(), ...[1, 2, 3, 4, 5].map((n) => attachment(`lampiran-${n}.pdf`))];
    const body = await refused(files, 400);
    expect(body.errors).toEqual({ attachments: 'Lampiran tidak boleh melebihi 5' });
  });

  it('removes EXIF and GPS from a JPEG before it reaches the legacy', async () => {
    const jpeg = await jpegWithGps();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    expect(Buffer.from(jpeg).includes('Budi Santoso')).toBe(true);
    const res = await submit(guestAnonymousFields(), [evidence('foto.jpg', jpeg)]);
    expect(res.statusCode).toBe(201);
    const stored = await legacyTrack(t.legacy.apiUrl, res.json().caseNumber, 'Pipa-Bocor-Gudang-7');
    const bytes = await legacyDownload(
      `${t.legacy.apiUrl}/WBSCase/DownloadAttachement/1/${stored.attachments[0]?.attachmentId}`,
      adminToken,
    );
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(bytes.includes('Exif')).toBe(false);
    expect(bytes.includes('Budi Santoso')).toBe(false);
  });

  it('refuses an image it cannot re-encode instead of forwarding its metadata', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 0x41)]);
    const body = await refused([evidence(), attachment('rusak.jpg', broken)], 400);
    expect(body.errors).toEqual({
      attachments: 'Gambar rusak.jpg tidak dapat diproses; simpan ulang atau perkecil gambar lalu coba lagi',
    });
  });

  it('removes the PDF author, creator, producer and XMP, and the Office document properties', async () => {
    const authored = await pdfBytes({ author: 'Budi Santoso', title: 'Laporan Budi' });
    const docx = await docxBytes('Budi Santoso');
    const res = await submit(guestAnonymousFields(), [
      evidence('laporan.pdf', authored),
      attachment('memo.docx', docx),
    ]);
    expect(res.statusCode).toBe(201);
    const stored = await legacyTrack(t.legacy.apiUrl, res.json().caseNumber, 'Pipa-Bocor-Gudang-7');
    const [storedPdf, storedDocx] = await Promise.all(
      stored.attachments.map((a) =>
        legacyDownload(`${t.legacy.apiUrl}/WBSCase/DownloadAttachement/1/${a.attachmentId}`, adminToken),
      ),
    );
    const doc = await PDFDocument.load(storedPdf as Buffer, { updateMetadata: false });
    expect(doc.getAuthor()).toBeUndefined();
    expect(doc.getCreator()).toBeUndefined();
    expect(doc.getProducer()).toBeUndefined();
    expect(doc.getTitle()).toBeUndefined();
    expect(doc.getPageCount()).toBe(1);
    expect((storedPdf as Buffer).includes('Budi')).toBe(false);
    expect((storedDocx as Buffer).subarray(0, 2).toString()).toBe('PK');
    expect((storedDocx as Buffer).includes('Budi')).toBe(false);
  });
});

describe('POST /cases with an Idempotency-Key', () => {
  const twice = async (key: string) => {
    const count = await legacyCaseCount(t.legacy.apiUrl, adminToken, 1);
    const [a, b] = await Promise.all([
      submit(guestAnonymousFields(), [evidence()], { 'idempotency-key': key }),
      submit(guestAnonymousFields(), [evidence()], { 'idempotency-key': key }),
    ]);
    const c = await submit(guestAnonymousFields(), [evidence()], { 'idempotency-key': key });
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([201, 201, 201]);
    expect(b.json()).toEqual(a.json());
    expect(c.json()).toEqual(a.json());
    expect(await legacyCaseCount(t.legacy.apiUrl, adminToken, 1)).toBe(count + 1);
    const other = await submit(guestAnonymousFields({ what: 'Laporan lain' }), [evidence()], {
      'idempotency-key': key,
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().type).toMatch(/\/conflict$/);
    expect(JSON.stringify(other.json())).not.toContain(a.json().caseNumber);
  };

  it('creates one case for concurrent and retried copies (memory store)', async () => {
    await twice(`mem-${randomUUID()}`);
  });

  it('creates one case for concurrent and retried copies (Redis store)', async () => {
    const r = await buildTestApp({ REDIS_URL: 'redis://127.0.0.1:6379' });
    const key = `test-${randomUUID()}`;
    const saved = t;
    try {
      t = r;
      adminToken = await legacyToken(t.legacy.apiUrl, 'admin.kahuripan', 'Perusahaan#2026!');
      await twice(key);
      expect(await r.app.redis?.exists(`idem:case:guest:${key}`)).toBe(1);
      expect(await r.app.redis?.pttl(`idem:case:guest:${key}`)).toBeGreaterThan(23 * 3600 * 1000);
    } finally {
      await r.app.redis?.del(`idem:case:guest:${key}`);
      t = saved;
      await r.close();
    }
  });

  it('refuses a malformed key before reading the body', async () => {
    const res = await submit(guestAnonymousFields(), [evidence()], { 'idempotency-key': 'kort' });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /cases by signed-in users', () => {
  it('a company admin files to its own company even when the form names another', async () => {
    const cookie = await signInAs(t.app, 2);
    const count2 = await legacyCaseCount(t.legacy.apiUrl, adminToken, 2);
    const res = await submit(
      identifiedGuestFields({ companyId: '2', channelId: '3', password: '', confirmPassword: '' }),
      [evidence()],
      browser(cookie),
    );
    expect(res.statusCode).toBe(201);
    const found = await fetch(`${t.legacy.apiUrl}/WBSCase/company/admin/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ draw: 1, start: 0, length: 5, caseNumber: res.json().caseNumber }),
    }).then((r) => r.json() as Promise<{ data: { caseId: number }[] }>);
    expect(found.data).toHaveLength(1);
    const stored = await legacyCase(t.legacy.apiUrl, adminToken, 1, found.data[0]?.caseId as number);
    expect(stored.caseChannelId).toBe(3);
    expect(await legacyCaseCount(t.legacy.apiUrl, adminToken, 2)).toBe(count2);
  });

  it('a partner files to one of its companies; another company is 404', async () => {
    const cookie = await signInAs(t.app, 3);
    const superToken = await legacyToken(t.legacy.apiUrl, 'admin', 'Admin#2026!');
    const created = await fetch(`${t.legacy.apiUrl}/CompanyMaster`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${superToken}` },
      body: JSON.stringify({
        username: 'lain',
        email: 'lain@example.com',
        companyName: 'Perusahaan Lain',
        companyPhone: '0211',
        companyAddress: 'Jl. Lain',
        provinceId: 32,
        cityId: 3201,
        partnerId: 0,
      }),
    }).then((r) => r.json() as Promise<{ code: number }>);
    expect(created.code).toBe(1);
    const outside = await submit(
      identifiedGuestFields({ companyId: '4', categoryId: '1' }),
      [evidence()],
      browser(cookie),
    );
    expect(outside.statusCode).toBe(404);

    const count2 = await legacyCaseCount(t.legacy.apiUrl, adminToken, 2);
    const own = await submit(
      identifiedGuestFields({ companyId: '2', categoryId: '10' }),
      [evidence()],
      browser(cookie),
    );
    expect(own.statusCode).toBe(201);
    expect(await legacyCaseCount(t.legacy.apiUrl, adminToken, 2)).toBe(count2 + 1);
  });

  it('privileged staff (role 1) file through their own kind: type 4 to its company, type 5 to a partner company', async () => {
    const analyst = await signIn(t.app, 'analis.direksi', 'Analis#2026!');
    const count1 = await legacyCaseCount(t.legacy.apiUrl, adminToken, 1);
    const byAnalyst = await submit(
      identifiedGuestFields({ companyId: '2', password: '', confirmPassword: '' }),
      [evidence()],
      browser(analyst),
    );
    expect(byAnalyst.statusCode, byAnalyst.body).toBe(201);
    expect(await legacyCaseCount(t.legacy.apiUrl, adminToken, 1)).toBe(count1 + 1);

    const partnerStaff = await signIn(t.app, 'staff.holding', 'Staff#2026!');
    const count2 = await legacyCaseCount(t.legacy.apiUrl, adminToken, 2);
    const byPartnerStaff = await submit(
      identifiedGuestFields({ companyId: '2', categoryId: '10', password: '', confirmPassword: '' }),
      [evidence()],
      browser(partnerStaff),
    );
    expect(byPartnerStaff.statusCode, byPartnerStaff.body).toBe(201);
    expect(await legacyCaseCount(t.legacy.apiUrl, adminToken, 2)).toBe(count2 + 1);
  });

  it('a partner must name a company', async () => {
    const cookie = await signInAs(t.app, 3);
    const res = await submit(identifiedGuestFields(), [evidence()], browser(cookie));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ companyId: 'Perusahaan wajib diisi' });
  });

  it.each([
    ['type 1 (administrator)', 'admin', 'Admin#2026!'],
    ['type 6 (signed-in whistleblower)', 'pelapor', 'Pelapor#2026!'],
    ['type 4 without role 1', 'analis.spi', 'Analis#2026!'],
    ['type 5 without role 1', 'staff.holding2', 'Staff#2026!'],
  ])('%s is refused with 403', async (_label, username, password) => {
    const cookie = await signIn(t.app, username, password);
    const res = await submit(identifiedGuestFields(), [evidence()], browser(cookie));
    expect(res.statusCode).toBe(403);
  });
});
