/**
 * State, per-step validation and the multipart body of the report wizard (/case/create).
 * Pure functions: the page component only renders them.
 */
import {
  casePasswordSchema,
  DEFAULT_CHANNEL_ID,
  FIELD_MESSAGES,
  involvedRowProblems,
  QUESTION_KEYS,
  wizardStep0Schema,
  wizardStep1Schema,
  wizardStep2Schema,
  wizardStep3Schema,
} from '@wbs/shared';
import { validate } from '../ui/validate.ts';

export const STEP_TITLES = [
  'Identitas pelapor',
  'Komunikasi',
  'Laporan Dugaan Pelanggaran',
  'Bukti Pendukung',
] as const;
export const LAST_STEP = STEP_TITLES.length - 1;

export type InvolvedRow = { key: string; name: string; position: string; description: string };

export type WizardState = {
  anonymous: boolean;
  reporterType: number;
  name: string;
  department: string;
  address: string;
  provinceId: number;
  cityId: number;
  districtId: number;
  email: string;
  phone: string;
  communicationTypes: number[];
  communicationTime: string;
  companyId: number;
  categoryId: number;
  what: string;
  where: string;
  when: string;
  perpetrator: string;
  directorate: string;
  division: string;
  how: string;
  involved: string;
  financialLoss: string;
  occurredBefore: string;
  reportedToBefore: string;
  perpetratorResponse: string;
  repeatReason: string;
  identificationReason: string;
  needsProtection: boolean;
  protectionReason: string;
  evidence: File | null;
  attachments: File[];
  evidenceLink: string;
  allegedlyInvolved: InvolvedRow[];
  channelId: number;
  password: string;
  confirmPassword: string;
};

/** Who files: a guest (password, company 1), a signed-in filer (channel), a partner user (company). */
export type FilerContext = { signedIn: boolean; partnerUser: boolean };

export function initialWizardState(): WizardState {
  return {
    anonymous: false,
    reporterType: 0,
    name: '',
    department: '',
    address: '',
    provinceId: 0,
    cityId: 0,
    districtId: 0,
    email: '',
    phone: '',
    communicationTypes: [],
    communicationTime: '',
    companyId: 0,
    categoryId: 0,
    what: '',
    where: '',
    when: '',
    perpetrator: '',
    directorate: '',
    division: '',
    how: '',
    involved: '',
    financialLoss: '',
    occurredBefore: '',
    reportedToBefore: '',
    perpetratorResponse: '',
    repeatReason: '',
    identificationReason: '',
    needsProtection: true,
    protectionReason: '',
    evidence: null,
    attachments: [],
    evidenceLink: '',
    allegedlyInvolved: [],
    channelId: DEFAULT_CHANNEL_ID,
    password: '',
    confirmPassword: '',
  };
}

export type StepResult = {
  /** Field → message, shown under each field. */
  errors: Record<string, string>;
  /** Messages that stop the step as a warning snackbar (allegedly-involved rows). */
  warnings: string[];
};

function step0Input(s: WizardState) {
  return s.anonymous
    ? { anonymous: true, reporterType: s.reporterType, email: s.email, phone: s.phone }
    : {
        anonymous: false,
        reporterType: s.reporterType,
        name: s.name,
        department: s.department,
        address: s.address,
        provinceId: s.provinceId,
        cityId: s.cityId,
        districtId: s.districtId,
        email: s.email,
        phone: s.phone,
      };
}

const STEP2_KEYS = ['categoryId', ...QUESTION_KEYS, 'needsProtection'] as const;

/** The allegedly-involved rows' problems (shared rule), shown as warnings. */
export function involvedWarnings(rows: readonly InvolvedRow[]): string[] {
  return involvedRowProblems(rows).map((problem) => problem.message);
}

/** Validates one step with the shared step schema (and the filer-specific rules). */
export function validateStep(step: number, s: WizardState, ctx: FilerContext): StepResult {
  const errors: Record<string, string> = {};
  const warnings: string[] = [];
  switch (step) {
    case 0:
      Object.assign(errors, validate(wizardStep0Schema, step0Input(s)).errors);
      break;
    case 1:
      Object.assign(
        errors,
        validate(wizardStep1Schema, {
          communicationTypes: s.communicationTypes,
          communicationTime: s.communicationTime,
        }).errors,
      );
      break;
    case 2: {
      if (ctx.partnerUser && !(s.companyId > 0)) errors.companyId = FIELD_MESSAGES.companyRequired;
      const input = Object.fromEntries(STEP2_KEYS.map((key) => [key, s[key]]));
      Object.assign(errors, validate(wizardStep2Schema, input).errors);
      break;
    }
    case 3: {
      if (!s.evidence) errors.evidence = FIELD_MESSAGES.evidenceRequired;
      const rows = s.allegedlyInvolved.map(({ name, position, description }) => ({
        name,
        position,
        description,
      }));
      Object.assign(
        errors,
        validate(wizardStep3Schema, { evidenceLink: s.evidenceLink, allegedlyInvolved: rows }).errors,
      );
      // Row problems are reported as warnings (spec), not as field errors.
      for (const key of Object.keys(errors)) if (key.startsWith('allegedlyInvolved')) delete errors[key];
      if (!ctx.signedIn) {
        Object.assign(
          errors,
          validate(casePasswordSchema, { password: s.password, confirmPassword: s.confirmPassword }).errors,
        );
      }
      warnings.push(...involvedWarnings(s.allegedlyInvolved));
      break;
    }
  }
  return { errors, warnings };
}

/** Which step holds a field (to send the user back there when the gateway rejects it). */
export function stepOfField(field: string): number {
  const root = field.split('.')[0] ?? field;
  if (
    [
      'anonymous',
      'reporterType',
      'name',
      'department',
      'address',
      'provinceId',
      'cityId',
      'districtId',
      'email',
      'phone',
    ].includes(root)
  )
    return 0;
  if (root === 'communicationTypes' || root === 'communicationTime') return 1;
  if (root === 'companyId' || (STEP2_KEYS as readonly string[]).includes(root)) return 2;
  return 3;
}

const trim = (value: string) => value.trim();

/**
 * The multipart body of POST /api/v1/cases, with the field names of the gateway contract. With
 * `withFiles: false` the files are not in it: they were uploaded resumably into the draft the
 * `Upload-Draft` header names.
 */
export function buildCaseForm(s: WizardState, ctx: FilerContext, withFiles = true): FormData {
  const form = new FormData();
  const put = (name: string, value: string | number | boolean) => form.append(name, String(value));
  put('anonymous', s.anonymous);
  put('reporterType', s.reporterType);
  // Anonymous reports send name and department empty and no address or location.
  put('name', s.anonymous ? '' : trim(s.name));
  put('department', s.anonymous ? '' : trim(s.department));
  if (!s.anonymous) {
    put('address', trim(s.address));
    put('provinceId', s.provinceId);
    put('cityId', s.cityId);
    put('districtId', s.districtId);
  }
  put('email', trim(s.email));
  put('phone', trim(s.phone));
  put('communicationTypes', [...s.communicationTypes].sort((a, b) => a - b).join(','));
  put('communicationTime', trim(s.communicationTime));
  put('categoryId', s.categoryId);
  for (const key of STEP2_KEYS) {
    if (key === 'categoryId' || key === 'needsProtection') continue;
    put(key, trim(s[key]));
  }
  put('needsProtection', s.needsProtection);
  put('evidenceLink', trim(s.evidenceLink));
  put(
    'allegedlyInvolved',
    JSON.stringify(
      s.allegedlyInvolved.map((row) => ({
        name: trim(row.name),
        position: trim(row.position),
        description: trim(row.description),
      })),
    ),
  );
  if (ctx.signedIn) {
    put('channelId', s.channelId);
    if (ctx.partnerUser) put('companyId', s.companyId);
  } else {
    put('password', s.password);
    put('confirmPassword', s.confirmPassword);
  }
  if (!withFiles) return form;
  if (s.evidence) form.append('evidence', s.evidence, s.evidence.name);
  for (const file of s.attachments) form.append('attachments', file, file.name);
  return form;
}

export function newIdempotencyKey(): string {
  const c: Crypto = globalThis.crypto;
  // randomUUID exists only in secure contexts (https or localhost)
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  c.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** True when the reporter has typed or chosen anything (leaving then asks first). */
export function hasTypedData(s: WizardState): boolean {
  const blank = initialWizardState();
  return (Object.keys(blank) as (keyof WizardState)[]).some((key) => {
    const value = s[key];
    const initial = blank[key];
    if (Array.isArray(value)) return value.length > 0;
    if (typeof value === 'string') return value.trim() !== '';
    return value !== initial;
  });
}
