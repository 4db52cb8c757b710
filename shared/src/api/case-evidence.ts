/**
 * Tambah Bukti: the reporter adds attachments to its case later (legacy add-attachments call).
 * `POST /cases/{id}/attachments` (signed-in pelapor, own cases) and `POST /tracking/attachments`
 * (tracker: complaint number and password as multipart text parts, never in a URL). Files as
 * repeated `attachments` parts; per case at most 5 in total, counting those already there.
 */
import * as v from 'valibot';
import { ATTACHMENTS_PER_CASE } from '../constants.ts';
import { fieldErrors } from '../forms.ts';
import { caseDetailAttachmentSchema, type TrackingRequest, trackingRequest } from './cases.ts';

/** The spool's rule: one file field, at most the per-case total in one request. */
export const CASE_EVIDENCE_FILES = {
  fields: { attachments: ATTACHMENTS_PER_CASE },
  total: ATTACHMENTS_PER_CASE,
  required: 'attachments',
} as const;

const text = (description: string) => v.optional(v.pipe(v.string(), v.description(description)));

export const caseEvidenceMultipartDoc = v.object({
  attachments: text('file lampiran (berulang; total per laporan termasuk yang sudah ada maks. 5)'),
});

export const trackerEvidenceMultipartDoc = v.object({
  caseNumber: text('Nomor Laporan (wajib)'),
  password: text('kata sandi laporan (wajib)'),
  ...caseEvidenceMultipartDoc.entries,
});

/** The tracker's proof from the multipart text parts, with the tracking form's messages. */
export function parseTrackerEvidenceFields(
  parts: Record<string, string>,
): { ok: true; value: TrackingRequest } | { ok: false; errors: Record<string, string> } {
  const result = v.safeParse(trackingRequest, {
    caseNumber: parts.caseNumber ?? '',
    password: parts.password ?? '',
  });
  if (!result.success) return { ok: false, errors: fieldErrors(result.issues) };
  return { ok: true, value: result.output };
}

/** Reply: the legacy's success text and the case's attachments after the addition. */
export const caseAttachmentsReply = v.object({
  message: v.string(),
  attachments: v.array(caseDetailAttachmentSchema),
});
export type CaseAttachmentsReply = v.InferOutput<typeof caseAttachmentsReply>;
