/** Reading case payloads: multipart parts (or JSON), file checks, and the wizard's validation rules. */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../context.ts';
import {
  ALLOWED_EXTENSIONS,
  contentTypeOf,
  extensionOf,
  MAX_CASE_FILES,
  MAX_FILE_BYTES,
} from '../seed/constants.ts';
import type { AllegedlyInvolved, StoredFile } from '../types.ts';
import { type Bag, body, EMAIL, num, pick, str } from './util.ts';

export type UploadedFile = { field: string; name: string; bytes: Buffer };
export type Payload = { fields: Bag; files: UploadedFile[] };
export type PayloadResult = { ok: true; payload: Payload } | { ok: false; messages: string[] };

/** Multipart (text parts + files) or JSON. Repeated text parts become arrays; a trailing '[]' is dropped. */
export async function readPayload(request: FastifyRequest): Promise<PayloadResult> {
  if (!request.isMultipart()) return { ok: true, payload: { fields: body(request), files: [] } };
  const fields: Bag = {};
  const files: UploadedFile[] = [];
  let current = '';
  try {
    for await (const part of request.parts()) {
      const name = part.fieldname.replace(/\[\]$/, '');
      if (part.type === 'file') {
        current = part.filename;
        const bytes = await part.toBuffer();
        if (part.file.truncated)
          return { ok: false, messages: [`Ukuran file ${part.filename} melebihi 10 MB`] };
        if (!part.filename && bytes.length === 0) continue; // an empty file input
        files.push({ field: name, name: part.filename || 'lampiran', bytes });
      } else {
        const value = String(part.value ?? '');
        const prev = fields[name];
        fields[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      return { ok: false, messages: [`Ukuran file ${current} melebihi 10 MB`] };
    if (code === 'FST_FILES_LIMIT')
      return { ok: false, messages: [`Lampiran tidak boleh melebihi ${MAX_CASE_FILES}`] };
    throw error;
  }
  return { ok: true, payload: { fields, files } };
}

/** Extension, size and duplicate checks (spec section 5). */
export function fileErrors(files: UploadedFile[], existingNames: string[] = []): string[] {
  const errors: string[] = [];
  const seen = new Set(existingNames.map((n) => n.toLowerCase()));
  for (const f of files) {
    if (!ALLOWED_EXTENSIONS.has(extensionOf(f.name))) errors.push(`Tipe file ${f.name} tidak diizinkan`);
    if (f.bytes.length > MAX_FILE_BYTES) errors.push(`Ukuran file ${f.name} melebihi 10 MB`);
    if (seen.has(f.name.toLowerCase())) errors.push(`Lampiran ${f.name} telah dipilih`);
    seen.add(f.name.toLowerCase());
  }
  return errors;
}

/** Stores the bytes and returns the stored-file record. */
export async function storeFile(ctx: Ctx, f: UploadedFile): Promise<StoredFile> {
  const key = `f-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}.${extensionOf(f.name) || 'bin'}`;
  await ctx.store.files.put(key, f.bytes);
  return { key, name: f.name, contentType: contentTypeOf(f.name), size: f.bytes.length };
}

/** Free-text fields: [name, max length, message when missing (null = optional)]. */
export const QUESTION_FIELDS: [string, number, string | null][] = [
  ['caseWhat', 500, 'Mohon isi kejadian apa yang ingin dilaporkan'],
  ['caseWhere', 255, 'Mohon isi di mana kejadian ini terjadi'],
  ['caseWhen', 255, 'Mohon isi kapan kejadian ini terjadi'],
  ['caseWhoPerpetratorAndPosition', 255, 'Mohon isi nama dan jabatan terlapor'],
  ['caseWhatDirectorate', 255, 'Mohon isi Unit Direktorat'],
  ['caseWhatDivision', 255, 'Mohon isi Unit Divisi'],
  ['caseHow', 500, 'Mohon isi bagaimana kejadian ini terjadi'],
  ['caseWhoInvolvedAndPosition', 500, null],
  ['caseWhatFinancialLoss', 500, null],
  ['caseWhenOccuredBefore', 500, null],
  ['caseWhoEverReportedToAndDetails', 500, null],
  ['caseWhatPerpetratorTalkAndReponse', 500, null],
  ['caseWhatRepeatableCaseReason', 500, null],
  ['caseWhatReasonReporterIdentification', 500, null],
  ['caseWhatReasonForProtection', 500, null],
  ['caseEvidenceLink', 500, null],
];

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || String(v).toLowerCase() === 'true';

/** '0,2', '[0,2]', ['0','2'] → '0,2' (null when unreadable). */
export function communicationTypes(value: unknown): string | null {
  let list: unknown[];
  if (Array.isArray(value)) list = value;
  else if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(value);
      list = Array.isArray(parsed) ? parsed : [];
    } catch {
      return null;
    }
  } else if (typeof value === 'string' || typeof value === 'number') list = String(value).split(',');
  else list = [];
  const ids = list.map((v) => String(v).trim()).filter((v) => v !== '');
  if (ids.some((v) => !/^[0-3]$/.test(v))) return null;
  return [...new Set(ids)].join(',');
}

export function parseInvolved(value: unknown): {
  list: Omit<AllegedlyInvolved, 'allegedlyInvolvedId'>[];
  errors: string[];
} {
  if (value === undefined || value === null || value === '') return { list: [], errors: [] };
  let raw: unknown = value;
  if (typeof value === 'string') {
    try {
      raw = JSON.parse(value);
    } catch {
      return { list: [], errors: ['Data pihak terkait tidak valid'] };
    }
  }
  if (!Array.isArray(raw)) return { list: [], errors: ['Data pihak terkait tidak valid'] };
  const errors: string[] = [];
  const list = raw.map((item, i) => {
    const b = (item && typeof item === 'object' ? item : {}) as Bag;
    const name = str(b, 'allegedlyInvolvedName');
    const position = str(b, 'allegedlyInvolvedPosition');
    if (!name) errors.push(`Nama pihak terkait wajib diisi di baris ${i + 1}`);
    if (!position) errors.push(`Posisi pihak terkait wajib diisi di baris ${i + 1}`);
    return {
      allegedlyInvolvedName: name,
      allegedlyInvolvedPosition: position,
      allegedlyInvolvedDescription: str(b, 'allegedlyInvolvedDescription'),
    };
  });
  return { list, errors };
}

/** Validates the reporter, communication and report steps; returns the normalized fields. */
export function caseFieldErrors(
  ctx: Ctx,
  b: Bag,
): { errors: string[]; fields: Record<string, string | number | null> } {
  const errors: string[] = [];
  const anonymous = truthy(pick(b, 'caseWhistleblowerIsAnonym')) || truthy(pick(b, 'caseAnonym'));
  const type = num(b, 'caseWhistleblowerType');
  if (type !== 1 && type !== 2) errors.push('Identitas Pelapor wajib diisi');
  const email = str(b, 'caseWhistleblowerEmail');
  if (!email) errors.push('Alamat Email wajib diisi');
  else if (!EMAIL.test(email) || email.length > 100) errors.push('Alamat Email Tidak Valid');
  const phone = str(b, 'caseWhistleblowerContactNum');
  if (!phone) errors.push('Nomor Telepon wajib diisi');
  else if (!/^[+\d]+$/.test(phone)) errors.push('Nomor Telepon tidak valid');
  else if (phone.length < 3) errors.push('minimal 3 nomor.');
  else if (phone.length > 50) errors.push('Maksimal 50 Karakter');
  const name = anonymous ? '' : str(b, 'caseWhistleblowerName');
  const address = anonymous ? '' : str(b, 'caseWhistleblowerAddress');
  if (!anonymous) {
    if (!name) errors.push('Nama wajib diisi');
    else if (name.length > 50) errors.push('Maksimal 50 Karakter');
    if (!address) errors.push('Alamat wajib diisi');
    else if (address.length > 50) errors.push('Maksimal 50 Karakter');
    if (!ctx.regions.provinceById.has(num(b, 'caseWhistleblowerProvinceId') ?? 0))
      errors.push('Provinsi wajib diisi');
    if (!ctx.regions.cityById.has(num(b, 'caseWhistleblowerCityId') ?? 0)) errors.push('Kota wajib diisi');
    if (!ctx.regions.districtById.has(num(b, 'caseWhistleblowerDistrictId') ?? 0))
      errors.push('Kecamatan wajib diisi');
  }
  const comm = communicationTypes(pick(b, 'caseWhistleblowerCommunicationType'));
  if (!comm) errors.push('Cara Komunikasi wajib pilih minimal 1');
  const commTime = str(b, 'caseWhistleblowerCommunicationTime');
  if (!commTime) errors.push('Waktu Komunikasi wajib diisi');

  const fields: Record<string, string | number | null> = {
    caseWhistleblowerName: name,
    caseWhistleblowerType: type,
    caseWhistleblowerEmail: email,
    caseWhistleblowerDept: anonymous ? '' : str(b, 'caseWhistleblowerDept'),
    caseWhistleblowerContactNum: phone,
    caseWhistleblowerAddress: address,
    caseWhistleblowerIsAnonym: anonymous ? 1 : 0,
    caseWhistleblowerProvinceId: anonymous ? null : num(b, 'caseWhistleblowerProvinceId'),
    caseWhistleblowerCityId: anonymous ? null : num(b, 'caseWhistleblowerCityId'),
    caseWhistleblowerDistrictId: anonymous ? null : num(b, 'caseWhistleblowerDistrictId'),
    caseWhistleblowerCommunicationType: comm ?? '',
    caseWhistleblowerCommunicationTime: commTime,
    caseIsReporterNeedProtection: num(b, 'caseIsReporterNeedProtection') === 0 ? 0 : 1,
  };
  for (const [key, max, missing] of QUESTION_FIELDS) {
    const value = str(b, key);
    if (!value && missing) errors.push(missing);
    else if (value.length > max) errors.push(`Maksimal ${max} Karakter`);
    fields[key] = value;
  }
  return { errors, fields };
}
