/**
 * A guest report as the wizard sends it, for the suites that file reports without a browser: the
 * text fields, the multipart body (as FormData or as bytes to stream at a chosen pace), tiny valid
 * files to attach, and the category a guest may file under.
 */
import { randomBytes } from 'node:crypto';
import { FormData } from 'undici';
import { tinyPdf as seedPdf } from '../legacy-sim/src/seed/files.ts';
import { makePng, makeZip } from './files.ts';
import { call } from './http.ts';

/** A valid 8×8 PNG of random pixels (sharp re-encodes it). */
export const tinyPng = (): Buffer => makePng('bukti.png').buffer;

/** A minimal one-page PDF (legacy-sim's seed maker). */
export const tinyPdf = (text = 'Bukti'): Buffer => seedPdf(text);

/** A valid zip of one stored entry of `size` bytes; zips are forwarded without scrubbing. */
export const storedZip = (size: number): Buffer => makeZip('bukti.zip', 'bukti.txt', 'x'.repeat(size)).buffer;

export type UploadFile = { field: 'evidence' | 'attachments'; name: string; type: string; bytes: Buffer };

/** The text fields of an anonymous guest report as the wizard sends them; `what` carries a marker. */
export function guestReportFields(
  what: string,
  password: string,
  categoryId: number,
): Record<string, string> {
  return {
    anonymous: 'true',
    reporterType: '1',
    name: '',
    department: '',
    email: 'pelapor.uji@example.com',
    phone: '+6281234567890',
    communicationTypes: '0,2',
    communicationTime: 'Hari kerja 09.00-17.00',
    categoryId: String(categoryId),
    what,
    where: 'Kantor pusat',
    when: 'Oktober 2026',
    perpetrator: 'Inisial AB, Kepala Seksi',
    directorate: 'Direktorat Umum',
    division: 'Divisi Pengadaan',
    how: 'Rekanan memberikan voucher belanja setelah kontrak ditandatangani.',
    involved: '',
    financialLoss: '',
    occurredBefore: '',
    reportedToBefore: '',
    perpetratorResponse: '',
    repeatReason: '',
    identificationReason: '',
    needsProtection: 'false',
    protectionReason: '',
    evidenceLink: '',
    allegedlyInvolved: '[]',
    password,
    confirmPassword: password,
  };
}

export function reportForm(fields: Record<string, string>, files: UploadFile[]): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const f of files) form.append(f.field, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  return form;
}

/** A multipart body as bytes (for streaming it at a chosen pace). */
export function multipartBytes(
  fields: Record<string, string>,
  files: UploadFile[],
): { contentType: string; bytes: Buffer } {
  const boundary = `----wbsfault${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.field}"; filename="${f.name}"\r\ncontent-type: ${f.type}\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(parts) };
}

/** The first category a guest may file under (guests file to company 1). */
export async function guestCategoryId(baseUrl: string): Promise<number> {
  const reply = await call(baseUrl, { path: '/api/v1/case-categories' });
  const items = (JSON.parse(reply.text) as { items?: { id: number }[] }).items ?? [];
  if (reply.status !== 200 || !items[0]) throw new Error(`GET /case-categories: HTTP ${reply.status}`);
  return items[0].id;
}
