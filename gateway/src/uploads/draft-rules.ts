/**
 * What each kind of draft takes and who may spend it (docs/adr/0066-resumable-evidence-uploads.md,
 * "Binding"). A draft is opened for one form — the report wizard, Tambah Bukti on one case, an
 * activity log on one case — and by one caller; its uploads follow that form's file limits, and only
 * that form's submission, by the same caller and for the same case, may file it. A draft that does
 * not fit is answered exactly as an unknown one: nothing tells a wrong purpose from a wrong token.
 */
import { CASE_CREATE_FILES } from '@wbs/shared/api/case-create';
import type { UploadField } from '@wbs/shared/api/uploads';
import { ATTACHMENTS_PER_CASE, ATTACHMENTS_PER_LOG } from '@wbs/shared/constants';
import { FIELD_MESSAGES, PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { Draft, DraftBinding, DraftFile, DraftPurpose } from './drafts.ts';
import { isAllowedExtension } from './policy.ts';
import type { SpooledFile } from './spool.ts';

export type DraftRule = { fields: Readonly<Partial<Record<UploadField, number>>>; total: number };

/**
 * Files per draft, by purpose: the wizard's (1 evidence, 5 in all); Tambah Bukti's (5 per case, fewer
 * when the case already has some: the draft's `room`); an activity log's (spec §5: one attachment,
 * kept under the draft field `attachments`).
 */
export const DRAFT_RULES: Readonly<Record<DraftPurpose, DraftRule>> = {
  case: CASE_CREATE_FILES,
  evidence: { fields: { attachments: ATTACHMENTS_PER_CASE }, total: ATTACHMENTS_PER_CASE },
  log: { fields: { attachments: ATTACHMENTS_PER_LOG }, total: ATTACHMENTS_PER_LOG },
};

/** The rule of one draft: its purpose's, with Tambah Bukti's total cut to the room its case had. */
export function draftRule(binding: DraftBinding): DraftRule {
  const rule = DRAFT_RULES[binding.purpose];
  return binding.room === null ? rule : { ...rule, total: Math.min(rule.total, binding.room) };
}

/** Who a request comes from, as a draft records it: the signed-in user, else a guest. */
export function draftOwnerOf(userId: number | null | undefined): string {
  return userId === null || userId === undefined ? 'guest' : `user:${userId}`;
}

/** A case as a draft names it. */
export function caseRefOf(found: { caseCompanyId: number; caseId: number }): string {
  return `${found.caseCompanyId}:${found.caseId}`;
}

/** Whether the draft's uploads may be sent by this caller (its owner; an unbound draft by anyone). */
export function ownsDraft(draft: Draft, owner: string): boolean {
  return draft.binding.owner === null || draft.binding.owner === owner;
}

/** Whether the draft may be filed by this form, this caller, for this case. */
export function fitsDraft(
  draft: Draft,
  expected: { purpose: DraftPurpose; owner: string; caseRef?: string | null },
): boolean {
  return (
    draft.binding.purpose === expected.purpose &&
    ownsDraft(draft, expected.owner) &&
    draft.binding.caseRef === (expected.caseRef ?? null)
  );
}

/**
 * The draft's files as a multipart upload would have given them (checked and scrubbed when each
 * upload completed), and the field errors of those that cannot be filed: refused (its reason) or
 * still arriving. `fieldOf` names the submission's field for a draft field (a log's `attachment`);
 * `required`: the field that must hold at least one accepted file.
 */
export function draftSubmission(
  records: readonly DraftFile[],
  options: { required: string | null; fieldOf?: (field: UploadField) => string },
): { files: SpooledFile[]; fileErrors: Record<string, string> } {
  const fieldOf = options.fieldOf ?? ((field: UploadField) => field);
  const files: SpooledFile[] = [];
  const fileErrors: Record<string, string> = {};
  for (const record of records) {
    const field = fieldOf(record.field);
    if (record.state === 'refused') fileErrors[field] ??= record.reason ?? PROBLEM_MESSAGES.validation;
    else if (record.state === 'uploading') fileErrors[field] ??= PROBLEM_MESSAGES.uploadNotFinished;
    else if (record.ext && isAllowedExtension(record.ext)) {
      files.push({
        field,
        name: record.name,
        ext: record.ext,
        detected: record.detected ?? '',
        path: record.path ?? '',
        size: record.forwardedSize ?? record.size,
        sha256: record.sha256 ?? '',
      });
    }
  }
  const { required } = options;
  if (required && !files.some((f) => f.field === required) && !fileErrors[required]) {
    fileErrors[required] = FIELD_MESSAGES.evidenceRequired;
  }
  return { files, fileErrors };
}
