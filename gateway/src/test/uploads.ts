/**
 * Test helpers of the upload routes: multipart bodies for `fastify.inject` (built with the standard
 * FormData and serialised by `Response`), real files of each kind (made with pdf-lib, sharp and yazl,
 * so their metadata is known), and direct reads of legacy-sim to check what it stored.
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import yazl from 'yazl';

export type FileSpec = { field: string; name: string; bytes: Uint8Array; type?: string };

/** Bytes and headers of a multipart body, ready for `inject`. */
export async function multipart(
  fields: Record<string, string>,
  files: FileSpec[] = [],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const f of files) {
    form.append(
      f.field,
      new Blob([Buffer.from(f.bytes)], { type: f.type ?? 'application/octet-stream' }),
      f.name,
    );
  }
  const response = new Response(form);
  const payload = Buffer.from(await response.arrayBuffer());
  return { payload, headers: { 'content-type': response.headers.get('content-type') ?? '' } };
}

/** A complete anonymous guest submission (texts only). */
export function guestAnonymousFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    anonymous: 'true',
    reporterType: '1',
    name: '',
    department: '',
    email: 'pelapor@example.com',
    phone: '+6281234567',
    communicationTypes: '0,2',
    communicationTime: 'Pagi hari',
    categoryId: '1',
    what: 'Pengadaan pipa digelembungkan',
    where: 'Gudang pusat',
    when: 'Maret 2026',
    perpetrator: 'Kepala gudang',
    directorate: 'Direktorat Operasional',
    division: 'Divisi Logistik',
    how: 'Faktur ganda untuk barang yang sama',
    needsProtection: 'true',
    evidenceLink: '',
    allegedlyInvolved: '[]',
    password: 'Pipa-Bocor-Gudang-7',
    confirmPassword: 'Pipa-Bocor-Gudang-7',
    ...overrides,
  };
}

/** A complete identified guest submission (texts only). */
export const identifiedGuestFields = (overrides: Record<string, string> = {}) =>
  guestAnonymousFields({
    anonymous: 'false',
    reporterType: '2',
    name: 'Siti Aminah',
    department: 'Keuangan',
    address: 'Jl. Merdeka 1',
    provinceId: '32',
    cityId: '3201',
    districtId: '320101',
    involved: 'Staf gudang',
    financialLoss: 'Rp 120 juta',
    occurredBefore: 'Belum',
    reportedToBefore: 'Atasan langsung',
    perpetratorResponse: 'Menyangkal',
    repeatReason: 'Tidak ada pengawasan',
    identificationReason: 'Bersedia bersaksi',
    needsProtection: 'false',
    protectionReason: '',
    evidenceLink: 'https://drive.example/bukti',
    allegedlyInvolved: JSON.stringify([
      { name: 'Andi', position: 'Kepala Gudang', description: 'Gudang pusat' },
    ]),
    ...overrides,
  });

export async function pdfBytes(meta: { author?: string; title?: string } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText('Bukti', { x: 20, y: 100 });
  if (meta.author) doc.setAuthor(meta.author);
  if (meta.title) doc.setTitle(meta.title);
  doc.setCreator('Microsoft Word - Laporan Budi');
  doc.setProducer('Budi Santoso PC');
  return doc.save();
}

export async function pngBytes(): Promise<Uint8Array> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

/** A JPEG with an EXIF block holding the camera owner and GPS coordinates. */
export async function jpegWithGps(): Promise<Uint8Array> {
  return sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 10, b: 10 } } })
    .jpeg()
    .withExif({
      IFD0: { Artist: 'Budi Santoso', Copyright: 'Budi Santoso' },
      IFD3: {
        GPSLatitudeRef: 'S',
        GPSLatitude: '6/1 12/1 3000/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '106/1 49/1 0/1',
      },
    })
    .toBuffer();
}

/** A minimal .docx: content types, one document part and core/app properties naming the author. */
export async function docxBytes(author: string): Promise<Uint8Array> {
  const zip = new yazl.ZipFile();
  const add = (name: string, text: string) => zip.addBuffer(Buffer.from(text), name);
  add(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>' +
      '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>' +
      '</Types>',
  );
  add(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  add(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      '<w:body><w:p><w:r><w:t>Bukti</w:t></w:r></w:p></w:body></w:document>',
  );
  add(
    'docProps/core.xml',
    `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${author}</dc:creator><cp:lastModifiedBy>${author}</cp:lastModifiedBy></cp:coreProperties>`,
  );
  add(
    'docProps/app.xml',
    `<?xml version="1.0" encoding="UTF-8"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Company>${author} Corp</Company></Properties>`,
  );
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as Readable) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A token of a demo account straight from legacy-sim (to read what it stored). */
export async function legacyToken(apiUrl: string, userName: string, password: string): Promise<string> {
  const res = await fetch(`${apiUrl}/JwtAuth/Login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName, password }),
  });
  const body = (await res.json()) as { data: Record<string, unknown> };
  const nested = Object.values(body.data).find(
    (v): v is { token: string } => typeof v === 'object' && v !== null && 'token' in v,
  );
  const token = typeof body.data.token === 'string' ? body.data.token : nested?.token;
  if (!token) throw new Error(`legacy login of ${userName} failed`);
  return token;
}

/** Number of cases of a company in legacy-sim. */
export async function legacyCaseCount(apiUrl: string, token: string, companyId: number): Promise<number> {
  const res = await fetch(`${apiUrl}/WBSCase/company/admin/${companyId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ draw: 1, start: 0, length: 1 }),
  });
  return ((await res.json()) as { recordsTotal: number }).recordsTotal;
}

export type LegacyTrackedCase = {
  caseId: number;
  caseCompanyId: number;
  caseChannelId: number;
  caseWhistleblowerName: string | null;
  caseWhistleblowerDept: string | null;
  caseWhistleblowerAddress: string | null;
  caseWhistleblowerIsAnonym: number;
  caseWhistleblowerProvinceId: number | null;
  attachments: { attachmentId: number; attachmentName: string }[];
  allegedlyinvolveds: { allegedlyInvolvedName: string; allegedlyInvolvedPosition: string }[];
  caselogs: { caseLogMessage: string; caseLogAttachmentName: string | null; caseLogId: number }[];
  caseCaseStatusId: number;
  caseCaseLineId: number | null;
} & Record<string, unknown>;

export async function legacyTrack(apiUrl: string, caseNumber: string, password: string) {
  const res = await fetch(`${apiUrl}/WBSCase/Whistleblower/byNumber`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ caseNumber, password }),
  });
  const body = (await res.json()) as { code: number; data: LegacyTrackedCase };
  if (body.code !== 1) throw new Error(`case ${caseNumber} not found in legacy-sim`);
  return body.data;
}

/** A case read by a company admin token (cases filed by signed-in users have no password). */
export async function legacyCase(apiUrl: string, token: string, companyId: number, caseId: number) {
  const res = await fetch(`${apiUrl}/WBSCase/company/${companyId}/${caseId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { code: number; data: LegacyTrackedCase };
  if (body.code !== 1) throw new Error(`case ${caseId} not found in legacy-sim`);
  return body.data;
}

export async function legacyDownload(url: string, token: string): Promise<Buffer> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`download failed: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The attachment of activity log `logId` of company 1 as the legacy stores it (read as its admin). */
export async function storedLogAttachment(legacyApiUrl: string, logId: number | undefined): Promise<Buffer> {
  const token = await legacyToken(legacyApiUrl, 'admin.kahuripan', 'Perusahaan#2026!');
  return legacyDownload(`${legacyApiUrl}/WBSCase/DownloadCaseLogAttachement/1/${logId}`, token);
}

/** A valid PDF of about `bytes` bytes (an embedded stream of random bytes), for uploads of a set size. */
export async function pdfOfSize(bytes: number, title = 'Bukti'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText(title, { x: 20, y: 100 });
  await doc.attach(randomBytes(Math.max(0, bytes - 2000)), 'isi.bin', {
    mimeType: 'application/octet-stream',
  });
  return doc.save();
}
