/**
 * Validation of every form of spec section 5, with the spec's messages. The web app validates with
 * these on submit (the wizard per step); the gateway validates the same payloads again, because the
 * client is never trusted.
 */
import * as v from 'valibot';
import { DEFAULT_ROLE_ID, FIELD_LIMITS } from './constants.ts';
import {
  FIELD_PROBLEM_DETAILS,
  format,
  FIELD_MESSAGES as M,
  PROBLEM_MESSAGES,
  TEMPLATE_MESSAGES as T,
} from './messages.ts';

// A missing key is validated as an empty value, so it gets the field's own "wajib diisi" message.
const text = (requiredMessage: string) =>
  v.optional(v.pipe(v.string(requiredMessage), v.trim(), v.nonEmpty(requiredMessage)), '');
const textMax = (requiredMessage: string, max: number, maxMessage: string) =>
  v.optional(
    v.pipe(v.string(requiredMessage), v.trim(), v.nonEmpty(requiredMessage), v.maxLength(max, maxMessage)),
    '',
  );
const email = (requiredMessage: string, invalidMessage: string) =>
  v.optional(
    v.pipe(v.string(requiredMessage), v.trim(), v.nonEmpty(requiredMessage), v.email(invalidMessage)),
    '',
  );
/** A password field: never trimmed; `min` adds the minimum-length rule with its own message. */
const secret = (requiredMessage: string, min?: { length: number; message: string }) =>
  v.optional(
    v.pipe(
      v.string(requiredMessage),
      v.nonEmpty(requiredMessage),
      v.minLength(min?.length ?? 1, min?.message ?? requiredMessage),
    ),
    '',
  );
/** A numeric id that must be chosen: not a number → `invalid`, 0 or missing → `required`. */
const chosenId = (invalidMessage: string, requiredMessage: string) =>
  v.optional(v.pipe(v.number(invalidMessage), v.integer(invalidMessage), v.minValue(1, requiredMessage)), 0);

export const loginSchema = v.object({
  username: text(M.usernameRequired),
  password: secret(M.passwordRequired),
});

export const forgotPasswordSchema = v.object({
  email: email(M.emailRequired, M.emailInvalid),
});

export const changePasswordSchema = v.pipe(
  v.object({
    oldPassword: secret(M.oldPasswordRequired),
    newPassword: secret(M.newPasswordRequired, {
      length: FIELD_LIMITS.passwordMin,
      message: M.newPasswordMin,
    }),
    confirmNewPassword: secret(M.confirmPasswordRequired, {
      length: FIELD_LIMITS.passwordMin,
      message: M.confirmPasswordMin,
    }),
  }),
  v.forward(
    v.partialCheck(
      [['newPassword'], ['confirmNewPassword']],
      (input) => input.newPassword === input.confirmNewPassword,
      M.confirmPasswordMismatch,
    ),
    ['confirmNewPassword'],
  ),
);

export const profileSchema = v.object({
  fullName: text(M.profileNameRequired),
  hideIdentity: v.boolean(),
});

const organisationFields = {
  username: text(M.usernameRequired),
  email: email(M.emailRequired, M.emailInvalid),
  phone: v.optional(
    v.pipe(
      v.string(M.phoneRequired),
      v.trim(),
      v.nonEmpty(M.phoneRequired),
      v.regex(/^\d+$/, M.phoneInvalid),
    ),
    '',
  ),
  address: text(M.addressRequired),
  provinceId: chosenId(M.provinceInvalid, M.provinceRequired),
  cityId: chosenId(M.cityInvalid, M.cityRequired),
};

export const partnerSchema = v.object({ name: text(M.nameRequired), ...organisationFields });

export const companySchema = v.object({
  name: text(M.nameRequired),
  ...organisationFields,
  /** Optional; 0 (or cleared) means the company belongs to no partner. */
  partnerId: v.optional(
    v.pipe(v.number(M.partnerInvalid), v.integer(M.partnerInvalid), v.minValue(0, M.partnerInvalid)),
    0,
  ),
});

const staffFields = {
  fullName: text(M.fullNameRequired),
  username: text(M.usernameRequiredLower),
  email: email(M.emailRequired, M.emailInvalid),
  /** Default 2 (spec); the gateway also checks it against the legacy's GET /UserRole. */
  roleId: v.optional(
    v.pipe(v.number(M.roleInvalid), v.integer(M.roleInvalid), v.minValue(1, M.roleInvalid)),
    DEFAULT_ROLE_ID,
  ),
};

export const partnerStaffSchema = v.object(staffFields);

export const analystSchema = v.object({
  ...staffFields,
  caseLineId: chosenId(M.caseLineInvalid, M.caseLineRequired),
});

export const trackingSchema = v.object({
  caseNumber: text(M.caseNumberRequired),
  password: secret(M.passwordRequired),
});

export const caseStatusSchema = v.object({
  name: text(M.statusNameRequired),
  order: v.pipe(v.number(M.statusOrderRequired), v.minValue(0, M.statusOrderRequired)),
});

export const caseCategorySchema = v.object({
  name: text(M.categoryNameRequired),
  /** Required (> 0) only when the company has category groups; see `requireCategoryGroup`. */
  groupId: v.optional(v.pipe(v.number(M.categoryGroupInvalid), v.integer(M.categoryGroupInvalid)), 0),
});

/** Activity log form; `needsCaseLine` is true when the current status id is 1 or 11. */
export function caseLogSchema(needsCaseLine: boolean) {
  return v.object({
    statusId: chosenId(M.statusInvalid, M.statusRequired),
    caseLineId: needsCaseLine
      ? chosenId(M.logLineInvalid, M.logLineRequired)
      : v.optional(v.nullable(v.pipe(v.number(M.logLineInvalid), v.integer(M.logLineInvalid))), null),
    message: text(M.logMessageRequired),
  });
}

// Report wizard ----------------------------------------------------------------------------------

const phone = v.optional(
  v.pipe(
    v.string(M.reporterPhoneInvalid),
    v.trim(),
    v.nonEmpty(M.reporterPhoneInvalid),
    v.regex(/^[0-9+]+$/, M.reporterPhoneInvalid),
    v.minLength(FIELD_LIMITS.phoneMin, M.reporterPhoneMin),
    v.maxLength(FIELD_LIMITS.phoneMax, M.reporterPhoneInvalid),
  ),
  '',
);
const reporterEmail = v.optional(
  v.pipe(
    v.string(M.reporterEmailInvalid),
    v.trim(),
    v.nonEmpty(M.reporterEmailInvalid),
    v.email(M.reporterEmailInvalid),
    v.maxLength(FIELD_LIMITS.email, M.reporterEmailInvalid),
  ),
  '',
);
const reporterType = v.optional(
  v.pipe(
    v.number(M.reporterTypeRequired),
    v.minValue(1, M.reporterTypeRequired),
    v.maxValue(2, M.reporterTypeRequired),
  ),
  0,
);

export const wizardIdentityAnonymousSchema = v.object({
  anonymous: v.literal(true),
  reporterType,
  email: reporterEmail,
  phone,
});

export const wizardIdentitySchema = v.object({
  anonymous: v.literal(false),
  reporterType,
  name: textMax('Nama wajib diisi', FIELD_LIMITS.name, 'Maksimal 50 Karakter'),
  department: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(FIELD_LIMITS.name, 'Maksimal 50 Karakter')),
    '',
  ),
  address: textMax(M.addressRequired, FIELD_LIMITS.address, 'Maksimal 50 Karakter'),
  provinceId: chosenId(M.provinceRequired, M.provinceRequired),
  cityId: chosenId(M.cityRequired, M.cityRequired),
  districtId: chosenId(M.districtRequired, M.districtRequired),
  email: reporterEmail,
  phone,
});

export const wizardStep0Schema = v.variant('anonymous', [
  wizardIdentityAnonymousSchema,
  wizardIdentitySchema,
]);

export const wizardStep1Schema = v.object({
  communicationTypes: v.optional(
    v.pipe(
      v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3)), M.communicationTypeRequired),
      v.minLength(1, M.communicationTypeRequired),
    ),
    [],
  ),
  communicationTime: text(M.communicationTimeRequired),
});

const answer = (requiredMessage: string) => textMax(requiredMessage, FIELD_LIMITS.answer, M.max255);
const longAnswer = (requiredMessage: string) => textMax(requiredMessage, FIELD_LIMITS.longText, M.max500);
const optionalLong = v.optional(
  v.pipe(v.string(), v.trim(), v.maxLength(FIELD_LIMITS.longText, M.max500)),
  '',
);

/** The report's question fields of wizard step 2, in the spec's order (the category aside). */
export const QUESTION_KEYS = [
  'what',
  'where',
  'when',
  'perpetrator',
  'directorate',
  'division',
  'how',
  'involved',
  'financialLoss',
  'occurredBefore',
  'reportedToBefore',
  'perpetratorResponse',
  'repeatReason',
  'identificationReason',
  'protectionReason',
] as const;

/** Step 2: the violation report (15 numbered questions; the first seven are required). */
export const wizardStep2Schema = v.object({
  categoryId: chosenId(M.categoryRequired, M.categoryRequired),
  what: longAnswer(M.caseWhatRequired),
  where: answer(M.caseWhereRequired),
  when: answer(M.caseWhenRequired),
  perpetrator: answer(M.casePerpetratorRequired),
  directorate: answer(M.caseDirectorateRequired),
  division: answer(M.caseDivisionRequired),
  how: longAnswer(M.caseHowRequired),
  involved: optionalLong,
  financialLoss: optionalLong,
  occurredBefore: optionalLong,
  reportedToBefore: optionalLong,
  perpetratorResponse: optionalLong,
  repeatReason: optionalLong,
  identificationReason: optionalLong,
  needsProtection: v.optional(v.boolean(), true),
  protectionReason: optionalLong,
});

export const allegedlyInvolvedSchema = v.object({
  name: v.pipe(v.string(), v.trim(), v.maxLength(FIELD_LIMITS.name)),
  position: v.pipe(v.string(), v.trim(), v.maxLength(FIELD_LIMITS.name)),
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(FIELD_LIMITS.answer)), ''),
});
export type AllegedlyInvolved = v.InferOutput<typeof allegedlyInvolvedSchema>;

export type InvolvedRowProblem = { index: number; field: 'name' | 'position'; message: string };

/**
 * Spec §5: on submit every allegedly-involved row needs a name and a position, each problem worded
 * with its 1-based row number. The wizard shows them as warnings, the gateway as field errors.
 */
export function involvedRowProblems(
  rows: readonly { name: string; position: string }[],
): InvolvedRowProblem[] {
  return rows.flatMap((row, index) => {
    const n = index + 1;
    const problems: InvolvedRowProblem[] = [];
    if (!row.name.trim()) {
      problems.push({ index, field: 'name', message: format(T.involvedNameRequired, { n }) });
    }
    if (!row.position.trim()) {
      problems.push({ index, field: 'position', message: format(T.involvedPositionRequired, { n }) });
    }
    return problems;
  });
}

/** A real web address a handler can open: http(s), a host with a dot (or localhost), no spaces. */
export function isWebLink(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (url.username || url.password) return false;
    return url.hostname === 'localhost' || /^[^.]+(\.[^.]+)+$/.test(url.hostname);
  } catch {
    return false;
  }
}

export const wizardStep3Schema = v.object({
  evidenceLink: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(FIELD_LIMITS.answer, M.max255),
      v.check((link) => link === '' || isWebLink(link), M.evidenceLinkInvalid),
    ),
    '',
  ),
  allegedlyInvolved: v.optional(v.array(allegedlyInvolvedSchema), []),
});

/** Minimum length of a NEW case password (docs/product/reporting.md#case-password: longer than the spec's 8). */
export const CASE_PASSWORD_MIN = 10;

const SEQUENCE_ROWS = [
  'abcdefghijklmnopqrstuvwxyz',
  '01234567890',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
];

/**
 * Why a password is trivial to guess whatever its length, or null: one character or one short unit
 * repeated ("aaaaaaaaaa", "abcabcabca", "1212121212"), or a run along the alphabet, the digits or a
 * keyboard row, forwards or backwards ("1234567890", "qwertyuiop", "zyxwvutsrq").
 */
export function trivialPassword(password: string): boolean {
  const lower = password.toLowerCase();
  for (let unit = 1; unit <= 4 && unit < lower.length; unit++) {
    const head = lower.slice(0, unit);
    if (head.repeat(Math.ceil(lower.length / unit)).startsWith(lower)) return true;
  }
  const reversed = [...lower].reverse().join('');
  return SEQUENCE_ROWS.some((row) => row.includes(lower) || row.includes(reversed));
}

/** The complaint password as the legacy stores it: never trimmed, only checked for presence. */
const newCasePassword = v.optional(
  v.pipe(
    v.string(M.casePasswordRequired),
    v.nonEmpty(M.casePasswordRequired),
    v.minLength(CASE_PASSWORD_MIN, M.casePasswordMin),
    v.check((password) => !trivialPassword(password), M.casePasswordTrivial),
  ),
  '',
);

/**
 * A guest chooses the password that later opens the report in Pantau Laporan. Only NEW reports get
 * this policy (tracking keeps accepting older cases' passwords); the common-password list is checked
 * on top of it by `@wbs/shared/common-passwords` (kept apart: its list is large).
 */
export const casePasswordSchema = v.pipe(
  v.object({
    password: newCasePassword,
    confirmPassword: secret(M.casePasswordRequired),
  }),
  v.forward(
    v.partialCheck(
      [['password'], ['confirmPassword']],
      (input) => input.password === input.confirmPassword,
      M.casePasswordMismatch,
    ),
    ['confirmPassword'],
  ),
);

/** Field errors as `{ field: firstMessage }`, the shape both the API problems and the forms use. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = v.getDotPath(issue) ?? '_';
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/** How many fields a validation problem's `detail` names before it only counts the rest. */
export const DETAIL_FIELDS_NAMED = 5;

/**
 * The `detail` of a validation problem with these field errors: the reason, never only "the data is
 * invalid" (that is the title). First match wins:
 * 1. a field message with a fuller reason of its own (FIELD_PROBLEM_DETAILS: the date rules, decision
 *    170) → that reason;
 * 2. one field error → its message (the spec's section-5 words, which name the field), or `Isian
 *    {field} tidak valid` when the message is the generic one;
 * 3. several → `Terdapat {count} isian yang tidak valid: {fields}`, naming the first five by their key
 *    in `errors` and counting the rest.
 * undefined without field errors: then nothing more than the title is known.
 */
export function problemDetailOf(errors: Record<string, string>): string | undefined {
  const entries = Object.entries(errors);
  for (const [, message] of entries) {
    const detail = FIELD_PROBLEM_DETAILS[message];
    if (detail !== undefined) return detail;
  }
  if (entries.length === 0) return undefined;
  if (entries.length === 1) {
    const [field, message] = entries[0]!;
    return message.trim() === '' || message === PROBLEM_MESSAGES.validation
      ? format(T.invalidField, { field })
      : message;
  }
  const named = entries.slice(0, DETAIL_FIELDS_NAMED).map(([field]) => field);
  const rest = entries.length - named.length;
  const fields =
    rest > 0 ? `${named.join(', ')}, ${format(T.moreFields, { count: rest })}` : named.join(', ');
  return format(T.invalidFields, { count: entries.length, fields });
}
