/**
 * /api/v1/upload-drafts and /api/v1/uploads: evidence uploaded resumably (tus 1.0) as soon as it is
 * chosen, held by the gateway in a draft until the report is filed (docs/product/reporting.md#uploads).
 * The draft token travels only in the `Upload-Draft` header, never in a URL.
 */
import * as v from 'valibot';

/** The request header naming the draft an upload or a submission belongs to. */
export const UPLOAD_DRAFT_HEADER = 'Upload-Draft';
/** 32 random bytes, base64url. */
export const UPLOAD_DRAFT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** The file fields an upload may be for (wizard step 3). */
export const UPLOAD_FIELDS = ['evidence', 'attachments'] as const;
export type UploadField = (typeof UPLOAD_FIELDS)[number];

export const uploadDraftReply = v.object({
  /** Kept in the page's memory only; sent back in the `Upload-Draft` header. */
  token: v.string(),
  /** ISO 8601: after this the draft and its files are removed. */
  expiresAt: v.string(),
});
export type UploadDraftReply = v.InferOutput<typeof uploadDraftReply>;

export const uploadedFile = v.object({
  /** The upload's id (the last segment of its tus URL). */
  id: v.string(),
  field: v.picklist(UPLOAD_FIELDS),
  name: v.string(),
  size: v.number(),
  /** `uploading`: bytes still missing; `accepted`: checked and scrubbed; `refused`: see `reason`. */
  state: v.picklist(['uploading', 'accepted', 'refused']),
  reason: v.nullable(v.string()),
});
export type UploadedFile = v.InferOutput<typeof uploadedFile>;

export const uploadDraftFilesReply = v.object({ items: v.array(uploadedFile) });
export type UploadDraftFilesReply = v.InferOutput<typeof uploadDraftFilesReply>;

export const uploadIdParams = v.object({
  id: v.pipe(v.string(), v.regex(/^[a-f0-9]{32}$/, 'Unggahan tidak ditemukan')),
});
