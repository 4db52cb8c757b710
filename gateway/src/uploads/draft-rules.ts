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
import { FIELD_MESSAGES, format, PROBLEM_MESSAGES, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import type { Draft, DraftBinding, DraftFile, DraftPurpose } from './drafts.ts';
import { fileMessages, isAllowedExtension, MAX_FILE_BYTES } from './policy.ts';
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

/** The most a draft's files may weigh together: its file count at 10 MB each (50 MB for the wizard). */
export const draftBytes = (rule: DraftRule) => rule.total * MAX_FILE_BYTES;

/** What a breach of a draft's limits is answered with: the field named and the form's message. */
export type DraftBreach = { field: UploadField; message: string; tooLarge: boolean };

/**
 * The first of `files` (in the draft's order) that takes the draft past one of its limits — its
 * form's file count, the count of its field, the draft's byte bound — or null when all fit. The same
 * rule at creation (the files there and the new one, under the draft's lock) and at filing (a draft
 * filled before the lock, by a replica of an older version, is counted again). The count's message
 * names the form's own limit (5 per case, 1 per log), as its one-request path does.
 */
export function draftBreach(
  files: readonly Pick<DraftFile, 'field' | 'name' | 'size'>[],
  binding: DraftBinding,
): DraftBreach | null {
  const rule = draftRule(binding);
  const bound = draftBytes(rule);
  const perField = new Map<UploadField, number>();
  let bytes = 0;
  for (const [index, file] of files.entries()) {
    const { field } = file;
    const count = (perField.get(field) ?? 0) + 1;
    perField.set(field, count);
    bytes += file.size;
    const max = rule.fields[field];
    const breach = (message: string, tooLarge = false): DraftBreach => ({ field, message, tooLarge });
    if (max === undefined) return breach(PROBLEM_MESSAGES.uploadRequestInvalid);
    if (index >= rule.total) return breach(fileMessages.tooMany(DRAFT_RULES[binding.purpose].total));
    if (count > max) return breach(fileMessages.tooMany(max));
    if (file.size > MAX_FILE_BYTES) return breach(fileMessages.tooLarge(file.name), true);
    if (bytes > bound) {
      return breach(
        format(TEMPLATE_MESSAGES.filesTooLarge, { limit: Math.round(bound / (1024 * 1024)) }),
        true,
      );
    }
  }
  return null;
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
 * upload completed), and the field errors of those that cannot be filed: refused (its reason), still
 * arriving, or beyond the draft's limits (`binding`'s rule). `fieldOf` names the submission's field
 * for a draft field (a log's `attachment`); `required`: the field that must hold at least one accepted
 * file.
 */
export function draftSubmission(
  records: readonly DraftFile[],
  options: { binding: DraftBinding; required: string | null; fieldOf?: (field: UploadField) => string },
): { files: SpooledFile[]; fileErrors: Record<string, string> } {
  const fieldOf = options.fieldOf ?? ((field: UploadField) => field);
  const files: SpooledFile[] = [];
  const fileErrors: Record<string, string> = {};
  // Counted again: nothing over the form's limits is sent on, whatever filled the draft.
  const breach = draftBreach(records, options.binding);
  if (breach) fileErrors[fieldOf(breach.field)] = breach.message;
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
