/**
 * Resumable uploads with the tus 1.0 protocol (@tus/server, files on disk with @tus/file-store), each
 * bound to a draft (drafts.ts) by the `Upload-Draft` header: an upload's URL id alone opens nothing.
 * The gateway's rules apply as they do to a multipart upload (spool.ts, policy.ts):
 * - at creation: the draft is open, the field is one its form has (draft-rules.ts: the wizard's
 *   `evidence` and `attachments`, Tambah Bukti's and an activity log's `attachments`), the name's
 *   extension is allowed and new to the draft, the size is declared and at most 10 MB, and the count
 *   is within the form's (wizard 5 with 1 evidence, Tambah Bukti the room its case had, a log 1), as
 *   is the draft's byte bound. Checked and recorded as one step under the draft's lock (draft-lock.ts):
 *   creations sent at once, to one replica or several, are counted one after the other;
 * - at completion: the content must match the extension (file-type), then the file is scrubbed in the
 *   worker pool (scrub.ts). Its verdict (accepted, or refused with the spec's message) is recorded in
 *   the draft at once, so the page shows a refused file's reason before Simpan.
 *
 * Logging: @tus/server writes only through `debug` (silent unless DEBUG names it); the gateway's own
 * request lines never carry an address or user agent (logging.ts).
 */
import { stat } from 'node:fs/promises';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import { UPLOAD_FIELDS, type UploadField } from '@wbs/shared/api/uploads';
import { PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyBaseLogger } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import { ApiProblem } from '../errors.ts';
import { draftBreach, draftRule } from './draft-rules.ts';
import { type Draft, type DraftFile, type Drafts, sha256Of } from './drafts.ts';
import {
  cleanFileName,
  contentMatches,
  extensionOf,
  fileMessages,
  isAllowedExtension,
  MAX_FILE_BYTES,
} from './policy.ts';
import type { ScrubContext } from './scrub.ts';
import { scrubFiles } from './scrub.ts';
import type { SpooledFile } from './spool.ts';

/** Where the tus server answers (its URLs are `{TUS_PATH}/{uploadId}`). */
export const TUS_PATH = '/api/v1/uploads';

/** What the route knows about the request tus is handling: the draft, and how to scrub and log. */
export type TusRequestContext = { draft: Draft; scrubbing: ScrubContext; log: FastifyBaseLogger };

/** A refusal tus sends as it is: the route turns the body back into the problem. */
function refusal(problem: ApiProblem): { status_code: number; body: string } {
  return { status_code: problem.status, body: JSON.stringify(problem.toJSON()) };
}

function fieldOf(value: string | null | undefined): UploadField | null {
  return UPLOAD_FIELDS.find((f) => f === value) ?? null;
}

/**
 * Checks and scrubs a complete upload and records the verdict. Runs when the last byte arrives, and
 * again for a complete upload still without a verdict (its replica stopped in between).
 */
export async function settleUpload(
  drafts: Drafts,
  ctx: TusRequestContext,
  record: DraftFile,
  path: string,
): Promise<DraftFile> {
  const refuse = async (reason: string) => {
    const refused: DraftFile = { ...record, state: 'refused', reason };
    await drafts.settleFile(ctx.draft.id, refused);
    return refused;
  };
  const ext = extensionOf(record.name);
  if (!isAllowedExtension(ext)) return refuse(fileMessages.notAllowed(record.name));
  const detected = (await fileTypeFromFile(path))?.ext;
  if (!contentMatches(ext, detected)) return refuse(fileMessages.mismatch(record.name));
  const sha256 = await sha256Of(path);
  const spooled: SpooledFile = {
    field: record.field,
    name: record.name,
    ext,
    detected: detected as string,
    path,
    size: record.size,
    sha256,
  };
  let scrubbed: SpooledFile[];
  try {
    scrubbed = await scrubFiles(ctx.scrubbing, [spooled]);
  } catch (error) {
    // The file's own fault (an image that cannot be processed, over the time or memory limit): its
    // field error is the reason. Anything else (a busy pool) leaves the verdict for later.
    const reason = error instanceof ApiProblem ? error.extras.errors?.[record.field] : undefined;
    if (reason) return refuse(reason);
    throw error;
  }
  const [file] = scrubbed;
  const accepted: DraftFile = {
    ...record,
    state: 'accepted',
    reason: null,
    ext,
    detected: detected as string,
    sha256,
    path: file?.path ?? path,
    forwardedSize: file?.size ?? record.size,
  };
  await drafts.settleFile(ctx.draft.id, accepted);
  return accepted;
}

/**
 * A complete upload whose verdict is missing (the replica that received its last byte stopped, or
 * its scrub was refused as busy) is checked now: the files list never leaves a finished file pending.
 */
export async function settlePending(drafts: Drafts, ctx: TusRequestContext): Promise<DraftFile[]> {
  const files = await drafts.files(ctx.draft.id);
  return Promise.all(
    files.map(async (file) => {
      if (file.state !== 'uploading' || ctx.draft.filedAt !== null) return file;
      const path = `${drafts.uploadsDir}/${file.id}`;
      const info = await stat(path).catch(() => null);
      if (!info || info.size !== file.size) return file;
      // Still too busy to scrub it: listed as waiting for its verdict, the others as they are.
      return settleUpload(drafts, ctx, file, path).catch((error: unknown) => {
        if (error instanceof ApiProblem && error.type === 'busy') return file;
        throw error;
      });
    }),
  );
}

export function createTusServer(drafts: Drafts, contextOf: (req: Request) => TusRequestContext | undefined) {
  const store = new FileStore({ directory: drafts.uploadsDir });
  const context = (req: Request): TusRequestContext => {
    const found = contextOf(req);
    if (!found) throw refusal(new ApiProblem('not-found', { detail: PROBLEM_MESSAGES.uploadDraftMissing }));
    return found;
  };
  const server = new Server({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    // No `maxSize`: the size is checked in onUploadCreate with the spec's message (tus's own is English),
    // and tus never writes past the declared length.
    // Same origin only: no CORS header is ever sent.
    allowedOrigins: () => false,
    async onUploadCreate(req: Request, upload: Upload) {
      const { draft } = context(req);
      if (draft.filedAt !== null) {
        throw refusal(new ApiProblem('not-found', { detail: PROBLEM_MESSAGES.uploadDraftMissing }));
      }
      const rule = draftRule(draft.binding);
      const field = fieldOf(upload.metadata?.field);
      const name = cleanFileName(upload.metadata?.filename ?? '');
      const perField = field ? rule.fields[field] : undefined;
      if (
        !field ||
        perField === undefined ||
        name === '' ||
        upload.sizeIsDeferred ||
        upload.size === undefined
      ) {
        throw refusal(new ApiProblem('bad-request', { detail: PROBLEM_MESSAGES.uploadRequestInvalid }));
      }
      const size = upload.size;
      const fieldError = (message: string, type: 'validation' | 'payload-too-large' = 'validation') =>
        refusal(new ApiProblem(type, { detail: message, errors: { [field]: message } }));
      if (size > MAX_FILE_BYTES) throw fieldError(fileMessages.tooLarge(name), 'payload-too-large');
      if (!isAllowedExtension(extensionOf(name))) throw fieldError(fileMessages.notAllowed(name));
      // Counted and recorded as the draft's one writer: a burst of creations cannot all see the same room.
      await drafts.change(draft.id, async (writer) => {
        // Filed (or gone) since the request read it.
        const current = await writer.draft();
        if (current === null || current.filedAt !== null) {
          throw refusal(new ApiProblem('not-found', { detail: PROBLEM_MESSAGES.uploadDraftMissing }));
        }
        let files = await writer.files();
        const same = files.find((f) => f.name.toLowerCase() === name.toLowerCase());
        // The same file again while its first creation is unfinished: the reply to that creation was
        // lost on a weak link (the client never learnt its URL), so the new upload replaces it.
        if (same && same.state === 'uploading' && same.field === field && same.size === size) {
          await writer.remove(same.id);
          files = files.filter((f) => f !== same);
        } else if (same) {
          throw fieldError(fileMessages.duplicate(name));
        }
        const breach = draftBreach([...files, { field, name, size }], draft.binding);
        if (breach) throw fieldError(breach.message, breach.tooLarge ? 'payload-too-large' : 'validation');
        await writer.put({ id: upload.id, field, name, size, state: 'uploading', reason: null });
      });
      // Only the draft's id goes into the tus record (never the token): the route compares it.
      return { metadata: { ...upload.metadata, filename: name, field, draft: draft.id } };
    },
    async onUploadFinish(req: Request, upload: Upload) {
      const ctx = context(req);
      const record = await drafts.file(ctx.draft.id, upload.id);
      if (!record) return {};
      try {
        await settleUpload(drafts, ctx, record, upload.storage?.path ?? `${drafts.uploadsDir}/${upload.id}`);
      } catch (error) {
        // A pool too busy to scrub it now: the client hears 503 `busy` (it retries), and the file,
        // whole and without a verdict, is settled when its draft's files are asked for again.
        if (error instanceof ApiProblem && error.type === 'busy') throw refusal(error);
        throw error;
      }
      return {};
    },
  });
  return { server, store };
}
