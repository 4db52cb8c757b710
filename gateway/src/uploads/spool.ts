/**
 * Receives a multipart upload into a private temporary spool on disk and checks every file while it
 * arrives: field, count, extension, duplicate name, size (10 MB, @fastify/multipart truncates
 * silently, so `truncated` is checked) and, once a file is complete, its content (magic bytes via
 * file-type). Nothing reaches the legacy from here: the route forwards the spooled files only after
 * the whole request passed, so the legacy never sees a partial or invalid submission.
 *
 * Memory stays bounded (files stream to disk in chunks); disk use per request is bounded by the
 * limits (5 × 10 MB). The spool is a `mkdtemp` folder (0700, files 0600) removed in `finally`; its
 * name carries the pid, so a spool left by a killed process is removed at the next start (spool-dirs.ts).
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import { FIELD_MESSAGES, PROBLEM_MESSAGES } from '@wbs/shared/messages';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import { ApiProblem } from '../errors.ts';
import { clientOf } from '../policies/flood-limits.ts';
import { startGarbageCollection } from './garbage.ts';
import {
  type AttachmentExtension,
  cleanFileName,
  contentMatches,
  extensionOf,
  fileMessages,
  formDataFileName,
  isAllowedExtension,
  MAX_FILE_BYTES,
} from './policy.ts';
import { spoolPrefix } from './spool-dirs.ts';

/** Which file fields an upload takes, how many files each, in total, and which one is required. */
export type FileRule = {
  fields: Readonly<Record<string, number>>;
  total: number;
  required: string | null;
};

export type SpooledFile = {
  field: string;
  /** The cleaned client file name (what the legacy stores and shows). */
  name: string;
  ext: AttachmentExtension;
  /** The file-type `ext` of the content. */
  detected: string;
  path: string;
  size: number;
  /** SHA-256 of the bytes as received (the idempotency fingerprint uses it). */
  sha256: string;
};

export type Upload = {
  fields: Record<string, string>;
  files: SpooledFile[];
  /** File problems as `{ field: message }` (400), empty when every file passed. */
  fileErrors: Record<string, string>;
  /** Where scrubbed copies are written (inside the same private spool). */
  dir: string;
};

const TEXT_LIMITS = { fields: 80, fieldSize: 64 * 1024, fieldNameSize: 100, headerPairs: 100 };

async function discard(stream: Readable): Promise<void> {
  stream.resume();
  if (stream.readableEnded) return;
  await new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}

/** Streams one file part to `path`; returns its size, hash and whether the parser cut it. */
async function spoolFile(part: MultipartFile, path: string) {
  const hash = createHash('sha256');
  let size = 0;
  await pipeline(
    part.file,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        hash.update(chunk);
        size += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(path, { mode: 0o600, flags: 'wx' }),
  );
  return { size, sha256: hash.digest('hex'), truncated: part.file.truncated };
}

function limitProblem(
  error: unknown,
  rule: FileRule,
  lastField: string | null,
  clientGone: boolean,
): ApiProblem | null {
  const code = (error as { code?: string })?.code;
  if (code === 'FST_FILES_LIMIT') {
    return new ApiProblem('validation', {
      errors: {
        [lastField ?? Object.keys(rule.fields)[0] ?? 'attachments']: fileMessages.tooMany(rule.total),
      },
    });
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PROTO_VIOLATION') {
    return new ApiProblem('validation', { errors: {} });
  }
  // A damaged body or Content-Type (no boundary, broken part headers, a body cut short) is the
  // client's mistake, reported by busboy with these texts: a 400, never a 500.
  const message = error instanceof Error ? error.message : '';
  if (
    !clientGone &&
    /^(Multipart: Boundary not found|Malformed part header|Unexpected end of form)/.test(message)
  ) {
    return new ApiProblem('bad-request', { detail: PROBLEM_MESSAGES.malformedUpload, cause: error });
  }
  return null;
}

/**
 * Whether the client hung up before its body was read to the end (closed tab, lost signal). A request
 * whose body was read to its end is `destroyed` too (Node auto-destroys it after 'end'): not a hang-up.
 */
export function clientHungUp(request: FastifyRequest): boolean {
  return request.raw.readableAborted || (request.raw.destroyed && !request.raw.readableEnded);
}

async function receive(request: FastifyRequest, rule: FileRule, dir: string): Promise<Upload> {
  const fields: Record<string, string> = {};
  const files: SpooledFile[] = [];
  const fileErrors: Record<string, string> = {};
  const perField = new Map<string, number>();
  const names = new Set<string>();
  let total = 0;
  let tooLarge: { field: string; message: string } | null = null;
  let lastField: string | null = null;
  const fail = (field: string, message: string) => {
    fileErrors[field] ??= message;
  };

  // Not in the typings but read by @fastify/multipart: truncation is answered here (413), not thrown.
  const options: Parameters<FastifyRequest['parts']>[0] & { throwFileSizeLimit: boolean } = {
    limits: {
      ...TEXT_LIMITS,
      fileSize: MAX_FILE_BYTES,
      // One more than allowed, so the extra file is seen and answered with the spec's message.
      files: rule.total + 1,
      parts: TEXT_LIMITS.fields + rule.total + 2,
    },
    throwFileSizeLimit: false,
  };
  // A client that hung up while the request waited (flood limit, spool folder) left a request Node has
  // already destroyed: its 'close' has passed, so the parser, which ends on 'close', would wait for a
  // body that never comes and hold a spool slot for good. Checked in the tick the parser starts in.
  if (clientHungUp(request)) {
    throw new ApiProblem('bad-request', { detail: PROBLEM_MESSAGES.uploadInterrupted });
  }
  try {
    // Inside the try: busboy refuses a Content-Type without a usable boundary as soon as it is created.
    const parts = request.parts(options);
    for await (const part of parts) {
      if (part.type === 'field') {
        const value = part as MultipartValue<unknown>;
        if (value.valueTruncated) fileErrors[value.fieldname] ??= PROBLEM_MESSAGES.validation;
        else fields[value.fieldname] ??= String(value.value ?? '');
        continue;
      }
      const field = part.fieldname;
      const max = rule.fields[field];
      // The browser wrote `"` as `%22` (form-data encoding): checks and messages use the real name.
      const name = cleanFileName(formDataFileName(part.filename ?? ''));
      // An unknown file field, or an empty file input (no name), carries nothing we forward.
      if (max === undefined || name === '') {
        await discard(part.file);
        continue;
      }
      lastField = field;
      const count = (perField.get(field) ?? 0) + 1;
      perField.set(field, count);
      total += 1;
      const ext = extensionOf(name);
      const problem =
        count > max
          ? fileMessages.tooMany(max)
          : total > rule.total
            ? fileMessages.tooMany(rule.total)
            : !isAllowedExtension(ext)
              ? fileMessages.notAllowed(name)
              : names.has(name.toLowerCase())
                ? fileMessages.duplicate(name)
                : null;
      names.add(name.toLowerCase());
      // After the first problem nothing is spooled any more: the request is answered with an error.
      if (problem || tooLarge || Object.keys(fileErrors).length > 0 || !isAllowedExtension(ext)) {
        if (problem) fail(field, problem);
        await discard(part.file);
        continue;
      }
      const path = join(dir, `upload-${files.length}`);
      const spooled = await spoolFile(part, path);
      if (spooled.truncated || spooled.size > MAX_FILE_BYTES) {
        tooLarge ??= { field, message: fileMessages.tooLarge(name) };
        await unlink(path);
        continue;
      }
      const detected = (await fileTypeFromFile(path))?.ext;
      if (!contentMatches(ext, detected)) {
        fail(field, fileMessages.mismatch(name));
        await unlink(path);
        continue;
      }
      files.push({
        field,
        name,
        ext,
        detected: detected as string,
        path,
        size: spooled.size,
        sha256: spooled.sha256,
      });
    }
  } catch (error) {
    const problem = limitProblem(error, rule, lastField, clientHungUp(request));
    if (problem) throw problem;
    throw error;
  }
  if (tooLarge) {
    throw new ApiProblem('payload-too-large', {
      detail: tooLarge.message,
      errors: { [tooLarge.field]: tooLarge.message },
    });
  }
  if (rule.required && !files.some((f) => f.field === rule.required) && !fileErrors[rule.required]) {
    fileErrors[rule.required] = FIELD_MESSAGES.evidenceRequired;
  }
  return { fields, files, fileErrors, dir };
}

/**
 * The parsed text fields, or the one 400 `validation` problem that names every text and file
 * problem of the upload together (so the form shows them all at once).
 */
export function validUpload<T>(
  parsed: { ok: true; value: T } | { ok: false; errors: Record<string, string> },
  upload: Upload,
): T {
  const errors = { ...(parsed.ok ? {} : parsed.errors), ...upload.fileErrors };
  if (!parsed.ok || Object.keys(errors).length > 0) throw new ApiProblem('validation', { errors });
  return parsed.value;
}

/**
 * Cuts the connection of a body that stays silent for `ms` (a client gone quiet mid-upload would
 * otherwise hold its spool and a slot forever): a multipart upload's, and a resumable upload's PATCH.
 * Returns the function that stops watching: after the body, scrubbing and the legacy call take the
 * time they take.
 */
export function watchIdleBody(request: FastifyRequest, ms: number): () => void {
  const socket = request.raw.socket as Socket | undefined;
  // fastify.inject's fake socket has no timers; there is no client to go quiet there either.
  if (typeof socket?.setTimeout !== 'function' || request.raw.readableEnded) return () => {};
  const onIdle = () => {
    request.log.info({ idleMs: ms }, 'upload stalled; connection closed');
    socket.destroy();
  };
  socket.setTimeout(ms, onIdle);
  return () => {
    socket.off('timeout', onIdle);
    socket.setTimeout(0);
  };
}

/** Buffer memory of the main thread above which a collection is started while uploads run. */
const BUFFER_GARBAGE_BYTES = 24 * 1024 * 1024;
const GARBAGE_CHECK_MS = 250;
let uploadsInFlight = 0;
let garbageCheck: NodeJS.Timeout | null = null;

/**
 * While any upload runs (body, scrub, sending on), checks four times a second whether the thread's
 * Buffer memory (nearly all of it upload chunks already written or sent, waiting to be collected) is
 * above 24 MB, and if so starts a collection (garbage.ts). Measured with `pnpm bench uploads`: the
 * main thread's Buffer memory swung up to ~85 MB without it. Returns the function that stops it.
 */
function watchBufferGarbage(): () => void {
  uploadsInFlight += 1;
  garbageCheck ??= setInterval(() => {
    if (process.memoryUsage().arrayBuffers > BUFFER_GARBAGE_BYTES) startGarbageCollection();
  }, GARBAGE_CHECK_MS).unref();
  return () => {
    uploadsInFlight -= 1;
    if (uploadsInFlight > 0 || !garbageCheck) return;
    clearInterval(garbageCheck);
    garbageCheck = null;
  };
}

/** The process's upload slots in use: in all, and per client (a client with none is not listed). */
export type UploadSlots = { active: number; perClient: Map<string, number> };

/**
 * Takes one of the process's upload slots (`UPLOAD_MAX_SPOOLS`): a multipart upload from its first
 * byte to its last legacy call, a resumable upload's PATCH while its bytes are written and, on the
 * last one, checked and scrubbed. None free, or the client (flood-limits.ts `clientOf`) already
 * holding its share (`UPLOAD_MAX_SPOOLS_PER_CLIENT`, docs/adr/0076-silent-patches-and-fair-upload-slots.md):
 * 503 `busy` with Retry-After, before a byte is read (a tus client retries it with back-off). One
 * client's stalled bodies so never take every slot. Returns the release, to call exactly once.
 */
export function takeUploadSlot(
  slots: UploadSlots,
  limits: { maxSpools: number; maxSpoolsPerClient: number },
  client: string,
): () => void {
  if (slots.active >= limits.maxSpools)
    throw new ApiProblem('busy', { retryAfter: 5, cause: 'upload spool cap reached' });
  const held = slots.perClient.get(client) ?? 0;
  if (held >= limits.maxSpoolsPerClient) {
    throw new ApiProblem('busy', {
      retryAfter: 5,
      detail: PROBLEM_MESSAGES.uploadsPerClientBusy,
      cause: "upload spool cap reached for this client's share",
    });
  }
  slots.active += 1;
  slots.perClient.set(client, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    slots.active -= 1;
    const left = (slots.perClient.get(client) ?? 1) - 1;
    if (left > 0) slots.perClient.set(client, left);
    else slots.perClient.delete(client);
  };
}

/**
 * Receives the multipart request into a fresh private spool, runs `use` with it and always removes
 * the spool afterwards (success, refusal or crash alike). At most `maxSpools` at once per process:
 * one more is answered 503 `busy` before a byte of its body is read.
 */
export async function withSpooledUpload<T>(
  request: FastifyRequest,
  rule: FileRule,
  use: (upload: Upload) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) {
    throw new ApiProblem('bad-request', { status: 415, detail: PROBLEM_MESSAGES.validation });
  }
  const { settings, spools } = request.server.uploads;
  const release = takeUploadSlot(spools, settings, clientOf(request));
  const stopGarbageCheck = watchBufferGarbage();
  const stopWatching = watchIdleBody(request, settings.idleTimeoutMs);
  let dir: string | null = null;
  try {
    dir = await mkdtemp(spoolPrefix());
    const upload = await receive(request, rule, dir)
      .finally(stopWatching)
      .catch((error: unknown) => {
        // The client hung up mid-upload: nobody is left to answer and nothing is wrong with the
        // gateway, so it is a refused request, not an internal error for ops (a refusal such as 413
        // keeps its own answer).
        if (error instanceof ApiProblem) throw error;
        if (clientHungUp(request)) {
          throw new ApiProblem('bad-request', { detail: PROBLEM_MESSAGES.uploadInterrupted, cause: error });
        }
        throw error;
      });
    return await use(upload);
  } finally {
    stopGarbageCheck();
    // A failure while parts were still arriving leaves the rest of the body unread: discard it, so the
    // client gets the answer instead of a stalled upload.
    if (!request.raw.readableEnded) {
      request.raw.unpipe();
      request.raw.resume();
    }
    if (dir) await rm(dir, { recursive: true, force: true });
    release();
  }
}
