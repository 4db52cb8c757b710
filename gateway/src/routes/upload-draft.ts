/**
 * The `Upload-Draft` header of the forms whose files may be uploaded resumably (the wizard, Tambah
 * Bukti, an activity log; docs/adr/0066-resumable-evidence-uploads.md): the draft it names, and that
 * draft's files in place of the multipart upload's. Whether a draft fits the form, the caller and the
 * case is each route's question (uploads/draft-rules.ts `fitsDraft`); a draft that does not fit is
 * answered exactly as an unknown one.
 */
import type { UploadField } from '@wbs/shared/api/uploads';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyRequest } from 'fastify';
import { ApiProblem } from '../errors.ts';
import { draftSubmission } from '../uploads/draft-rules.ts';
import type { Draft } from '../uploads/drafts.ts';
import { settlePending } from '../uploads/resumable.ts';
import type { FileRule, Upload } from '../uploads/spool.ts';

/** A post whose files were uploaded resumably carries only text parts. */
export const NO_FILE_PARTS: FileRule = { fields: {}, total: 0, required: null };

/** The refusal of a missing, expired, spent or unfitting draft, under the form's file field. */
export const draftMissing = (field: string) =>
  new ApiProblem('validation', { errors: { [field]: PROBLEM_MESSAGES.uploadDraftMissing } });

/** The draft the header names; null without the header; an unknown token is `draftMissing(field)`. */
export async function headerDraft(request: FastifyRequest, field: string): Promise<Draft | null> {
  const token = request.headers['upload-draft'];
  if (token === undefined) return null;
  const draft = await request.server.uploads.drafts.find(String(token));
  if (!draft) throw draftMissing(field);
  return draft;
}

/**
 * The draft's files (checked and scrubbed as each upload completed; any still pending settled now)
 * as the multipart upload would have given them, with the errors of those that cannot be filed (its
 * form's limits counted again).
 */
export async function draftUpload(
  request: FastifyRequest,
  draft: Draft,
  upload: Upload,
  options: { required: string | null; fieldOf?: (field: UploadField) => string },
): Promise<Upload> {
  const records = await settlePending(request.server.uploads.drafts, {
    draft,
    scrubbing: request.scrubbing,
    log: request.log,
  });
  const { files, fileErrors } = draftSubmission(records, { ...options, binding: draft.binding });
  return { ...upload, files, fileErrors: { ...upload.fileErrors, ...fileErrors } };
}
