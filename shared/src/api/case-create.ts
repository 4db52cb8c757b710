/**
 * Multipart requests of the report wizard (POST /cases) and of the activity log
 * (POST /cases/{id}/logs). A multipart body arrives as text parts, so these schemas turn the texts
 * into the wizard's values and then apply the very schemas the web validates with (`../forms.ts`):
 * the gateway answers with the same field names and section-5 messages as the form shows.
 */
import * as v from 'valibot';
import { isCommonPassword } from '../common-passwords.ts';
import { ATTACHMENTS_PER_CASE, ATTACHMENTS_PER_LOG } from '../constants.ts';
import {
  type AllegedlyInvolved,
  caseLogSchema,
  casePasswordSchema,
  fieldErrors,
  involvedRowProblems,
  QUESTION_KEYS,
  wizardStep0Schema,
  wizardStep1Schema,
  wizardStep2Schema,
  wizardStep3Schema,
} from '../forms.ts';
import { FIELD_MESSAGES as M, PROBLEM_MESSAGES } from '../messages.ts';
import { receiptTime } from './common.ts';

/** File parts of each upload: the form field and how many files it may carry. */
export const CASE_CREATE_FILES = {
  fields: { evidence: 1, attachments: ATTACHMENTS_PER_CASE },
  total: ATTACHMENTS_PER_CASE,
  required: 'evidence',
} as const;
export const CASE_LOG_FILES = {
  fields: { attachment: ATTACHMENTS_PER_LOG },
  total: ATTACHMENTS_PER_LOG,
  required: null,
} as const;

/** Who files decides which fields apply (spec §6 "Filing a report"). */
export type Filer = 'guest' | 'company' | 'partner';

export { QUESTION_KEYS };

export type CaseCreateInput = {
  anonymous: boolean;
  reporterType: number;
  name: string;
  department: string;
  address: string;
  provinceId: number | null;
  cityId: number | null;
  districtId: number | null;
  email: string;
  phone: string;
  communicationTypes: number[];
  communicationTime: string;
  categoryId: number;
  needsProtection: boolean;
  evidenceLink: string;
  allegedlyInvolved: AllegedlyInvolved[];
  /** Signed-in filers only (1–4); guests file through channel 1. */
  channelId: number | null;
  /** Partner filers only; checked against the partner's companies by the gateway. */
  companyId: number | null;
  /** Guests only. */
  password: string;
  confirmPassword: string;
} & Record<(typeof QUESTION_KEYS)[number], string>;

export type TextParts = Record<string, string>;
type Result<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string> };

const flag = (value: string | undefined, fallback: boolean) => {
  if (value === undefined || value.trim() === '') return fallback;
  return ['true', '1', 'on', 'yes'].includes(value.trim().toLowerCase());
};
/** '' → 0 (the "wajib diisi" case of a chosen id); anything not a number → NaN (the "invalid" case). */
const numeric = (value: string | undefined) => {
  const text = value?.trim() ?? '';
  if (text === '') return 0;
  return /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
};

function communicationTypes(value: string | undefined): number[] | null {
  const ids = (value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (ids.some((id) => !/^[0-3]$/.test(id))) return null;
  return [...new Set(ids.map(Number))].sort((a, b) => a - b);
}

function involvedRows(value: string | undefined): unknown[] | null {
  if (value === undefined || value.trim() === '') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const channelSchema = v.pipe(
  v.number(M.channelInvalid),
  v.integer(M.channelInvalid),
  v.minValue(1, M.channelInvalid),
  v.maxValue(4, M.channelInvalid),
);
const companySchema = v.pipe(
  v.number(M.companyRequired),
  v.integer(M.companyRequired),
  v.minValue(1, M.companyRequired),
);

function collect(errors: Record<string, string>, issues: readonly v.BaseIssue<unknown>[] | undefined) {
  if (!issues) return;
  for (const [key, message] of Object.entries(fieldErrors(issues))) errors[key] ??= message;
}

/**
 * The text parts of POST /cases checked with the wizard's rules for this filer. Field errors use the
 * form's names (`name`, `communicationTypes`, `allegedlyInvolved.0.name`, …).
 */
export function parseCaseCreateFields(parts: TextParts, filer: Filer): Result<CaseCreateInput> {
  const errors: Record<string, string> = {};
  const anonymous = flag(parts.anonymous, false);
  const identity = anonymous
    ? {
        anonymous,
        reporterType: numeric(parts.reporterType),
        email: parts.email ?? '',
        phone: parts.phone ?? '',
      }
    : {
        anonymous,
        reporterType: numeric(parts.reporterType),
        name: parts.name ?? '',
        department: parts.department ?? '',
        address: parts.address ?? '',
        provinceId: numeric(parts.provinceId),
        cityId: numeric(parts.cityId),
        districtId: numeric(parts.districtId),
        email: parts.email ?? '',
        phone: parts.phone ?? '',
      };
  const step0 = v.safeParse(wizardStep0Schema, identity);
  collect(errors, step0.issues);

  const types = communicationTypes(parts.communicationTypes);
  if (types === null) errors.communicationTypes = M.communicationTypeRequired;
  const step1 = v.safeParse(wizardStep1Schema, {
    communicationTypes: types ?? [],
    communicationTime: parts.communicationTime ?? '',
  });
  collect(errors, step1.issues);

  const step2 = v.safeParse(wizardStep2Schema, {
    categoryId: numeric(parts.categoryId),
    ...Object.fromEntries(QUESTION_KEYS.map((key) => [key, parts[key] ?? ''])),
    needsProtection: flag(parts.needsProtection, true),
  });
  collect(errors, step2.issues);

  const rows = involvedRows(parts.allegedlyInvolved);
  if (rows === null) errors.allegedlyInvolved = PROBLEM_MESSAGES.validation;
  const step3 = v.safeParse(wizardStep3Schema, {
    evidenceLink: parts.evidenceLink ?? '',
    allegedlyInvolved: (rows ?? []).map((row) => {
      const r = (row && typeof row === 'object' ? row : {}) as Record<string, unknown>;
      const text = (key: string) => (typeof r[key] === 'string' ? r[key] : '');
      return { name: text('name'), position: text('position'), description: text('description') };
    }),
  });
  collect(errors, step3.issues);
  for (const problem of involvedRowProblems(step3.success ? step3.output.allegedlyInvolved : [])) {
    errors[`allegedlyInvolved.${problem.index}.${problem.field}`] = problem.message;
  }

  let channelId: number | null = null;
  let companyId: number | null = null;
  let password = '';
  let confirmPassword = '';
  if (filer === 'guest') {
    const secret = v.safeParse(casePasswordSchema, {
      password: parts.password ?? '',
      confirmPassword: parts.confirmPassword ?? '',
    });
    collect(errors, secret.issues);
    if (secret.success && isCommonPassword(secret.output.password)) {
      errors.password = M.casePasswordCommon;
    }
    if (secret.success) ({ password, confirmPassword } = secret.output);
  } else {
    const channel = v.safeParse(channelSchema, numeric(parts.channelId || '1'));
    if (channel.success) channelId = channel.output;
    else errors.channelId = M.channelInvalid;
  }
  if (filer === 'partner') {
    const company = v.safeParse(companySchema, numeric(parts.companyId));
    if (company.success) companyId = company.output;
    else errors.companyId = M.companyRequired;
  }

  if (
    !step0.success ||
    !step1.success ||
    !step2.success ||
    !step3.success ||
    Object.keys(errors).length > 0
  ) {
    return { ok: false, errors };
  }
  const who = step0.output;
  return {
    ok: true,
    value: {
      anonymous: who.anonymous,
      reporterType: who.reporterType,
      name: who.anonymous ? '' : who.name,
      department: who.anonymous ? '' : who.department,
      address: who.anonymous ? '' : who.address,
      provinceId: who.anonymous ? null : who.provinceId,
      cityId: who.anonymous ? null : who.cityId,
      districtId: who.anonymous ? null : who.districtId,
      email: who.email,
      phone: who.phone,
      communicationTypes: step1.output.communicationTypes,
      communicationTime: step1.output.communicationTime,
      ...step2.output,
      evidenceLink: step3.output.evidenceLink,
      allegedlyInvolved: step3.output.allegedlyInvolved,
      channelId,
      companyId,
      password,
      confirmPassword,
    },
  };
}

export type CaseLogInput = { statusId: number; caseLineId: number | null; message: string };

/** The text parts of POST /cases/{id}/logs; `needsCaseLine` when the current status id is 1 or 11. */
export function parseCaseLogFields(parts: TextParts, needsCaseLine: boolean): Result<CaseLogInput> {
  const line = parts.caseLineId?.trim() ?? '';
  const result = v.safeParse(caseLogSchema(needsCaseLine), {
    statusId: numeric(parts.statusId),
    caseLineId: line === '' || line === 'null' ? (needsCaseLine ? 0 : null) : numeric(line),
    message: parts.message ?? '',
  });
  if (!result.success) return { ok: false, errors: fieldErrors(result.issues) };
  return { ok: true, value: result.output };
}

// OpenAPI documentation of the multipart bodies (they are read as streams, not validated by schema).

const text = (description: string) => v.optional(v.pipe(v.string(), v.description(description)));

export const caseCreateMultipartDoc = v.object({
  anonymous: text('true: Tanpa Identitas (nama dan departemen dikirim kosong, tanpa alamat/lokasi)'),
  reporterType: text('1 Pribadi, 2 Instansi'),
  name: text('maks. 50'),
  department: text('maks. 50'),
  address: text('maks. 50'),
  provinceId: text('id provinsi'),
  cityId: text('id kota'),
  districtId: text('id kecamatan'),
  email: text('maks. 100'),
  phone: text('angka dan +, 3–50'),
  communicationTypes: text('id dipisah koma, 0–3'),
  communicationTime: text('wajib'),
  categoryId: text('id kategori perusahaan tujuan'),
  ...Object.fromEntries(QUESTION_KEYS.map((key) => [key, text('jawaban pertanyaan laporan')])),
  needsProtection: text('true/false (bawaan true)'),
  evidenceLink: text('maks. 255'),
  allegedlyInvolved: text('JSON: [{ name, position, description }]'),
  password: text(
    'tamu saja: kata sandi pengaduan baru, min. 10 karakter, bukan kata sandi umum, berulang atau berurutan',
  ),
  confirmPassword: text('tamu saja: sama dengan password'),
  channelId: text('pengguna masuk saja: 1–4'),
  companyId: text('partner (tipe 3, 5) saja: perusahaan milik partner'),
  evidence: text('file bukti pendukung (wajib)'),
  attachments: text('file lampiran lain (berulang; total dengan evidence maks. 5)'),
});

export const caseLogMultipartDoc = v.object({
  statusId: text('status baru (urutan sama atau satu lebih tinggi)'),
  caseLineId: text('wajib saat status saat ini 1 atau 11'),
  message: text('Catatan Aktivitas (wajib)'),
  attachment: text('satu file (opsional)'),
});

/**
 * A signed filing receipt (docs/adr/0033-signed-filing-receipts.md): `code` is what the PDF carries as QR code and text; the claims
 * beside it are inside the code too (see gateway/src/receipts/receipt.ts, docs/receipts.md).
 */
export const receiptSchema = v.object({
  code: v.string(),
  keyId: v.string(),
  caseNumber: v.string(),
  filedAt: receiptTime,
  digest: v.string(),
});
export type Receipt = v.InferOutput<typeof receiptSchema>;

/** Reply of POST /cases: the legacy's success text, the complaint number (message[1]) and its receipt. */
export const caseCreatedReply = v.object({
  message: v.string(),
  caseNumber: v.string(),
  receipt: receiptSchema,
  /**
   * The last day (YYYY-MM-DD, WIB) by which the report is acknowledged: its company's acknowledgement
   * deadline from today ("Laporan Anda akan ditanggapi paling lambat …"); null when the gateway's
   * store could not be read (the report is filed all the same).
   */
  respondBy: v.nullable(v.string()),
});
export type CaseCreatedReply = v.InferOutput<typeof caseCreatedReply>;
