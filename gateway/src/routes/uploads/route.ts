/**
 * Resumable evidence uploads (tus 1.0; docs/adr/0066-resumable-evidence-uploads.md):
 * - a draft is opened for one form, and its token is the page's, sent back in `Upload-Draft` only:
 *   POST /upload-drafts (the report wizard), POST /cases/{id}/attachments/upload-drafts (Tambah Bukti of
 *   the signed-in pelapor, its own case), POST /tracking/attachments/upload-drafts (Tambah Bukti of the
 *   tracker, after the same proof as every tracker call), POST /cases/{id}/logs/upload-drafts (an
 *   activity log's attachment, a handler with the case in scope). Each is bound to its form, its caller
 *   and its case (uploads/draft-rules.ts);
 * - POST /uploads, HEAD|PATCH|DELETE /uploads/{id}: the tus protocol (creation, offset, append,
 *   termination), each with the draft's token, from the draft's caller: an upload of another draft, or
 *   a draft of another caller, is 404, as is an unknown one. A PATCH holds one of the process's upload
 *   slots (UPLOAD_MAX_SPOOLS, at most UPLOAD_MAX_SPOOLS_PER_CLIENT of them per client) while it writes
 *   and, on the last one, scrubs: none free → 503 `busy`; a PATCH body silent for
 *   UPLOAD_IDLE_TIMEOUT_MS has its connection cut (docs/adr/0076-silent-patches-and-fair-upload-slots.md);
 * - GET /upload-drafts/files: the draft's files with their verdicts (a refused file says why).
 * The protocol itself is @tus/server's; this module hands it the request and turns its refusals into
 * problems. Filing a draft is its form's submission with the same header (POST /cases,
 * POST /cases/{id}/attachments, POST /tracking/attachments, POST /cases/{id}/logs).
 */
import { Readable } from 'node:stream';
import { type TrackingRequest, trackingRequest } from '@wbs/shared/api/cases';
import { type IdParams, idParams, PROBLEM_TYPE_BASE } from '@wbs/shared/api/common';
import {
  UPLOAD_DRAFT_TOKEN_PATTERN,
  type UploadDraftFilesReply,
  type UploadDraftReply,
  uploadDraftFilesReply,
  uploadDraftReply,
  uploadIdParams,
} from '@wbs/shared/api/uploads';
import { ATTACHMENTS_PER_CASE } from '@wbs/shared/constants';
import { PROBLEM_MESSAGES, UI_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { ApiProblem, PROBLEMS, type ProblemType } from '../../errors.ts';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { clientOf, floodLimiter } from '../../policies/flood-limits.ts';
import { trackerProof } from '../../policies/tracker-proof.ts';
import { routeSchema } from '../../schema.ts';
import { caseRefOf, draftOwnerOf, ownsDraft } from '../../uploads/draft-rules.ts';
import type { Draft, DraftBinding, DraftFile, Drafts } from '../../uploads/drafts.ts';
import { createTusServer, settlePending, type TusRequestContext } from '../../uploads/resumable.ts';
import { clientHungUp, takeUploadSlot, watchIdleBody } from '../../uploads/spool.ts';

const TAGS = ['uploads'];

const draftHeader = v.pipe(
  v.string(PROBLEM_MESSAGES.uploadDraftMissing),
  v.regex(UPLOAD_DRAFT_TOKEN_PATTERN, PROBLEM_MESSAGES.uploadDraftMissing),
  v.description('Token draf dari POST /upload-drafts (hanya di header ini, tidak pernah di URL).'),
);
const tusHeader = (description: string) => v.optional(v.pipe(v.string(), v.description(description)));
const TUS_RESUMABLE = tusHeader('Versi protokol tus: `1.0.0` (wajib).');
const draftHeaders = v.looseObject({ 'upload-draft': draftHeader });
const creationHeaders = v.looseObject({
  'upload-draft': draftHeader,
  'tus-resumable': TUS_RESUMABLE,
  'upload-length': tusHeader('Ukuran file dalam byte (maks. 10 MB).'),
  'upload-metadata': tusHeader('`filename` dan `field` (`evidence` atau `attachments`), base64.'),
});
const patchHeaders = v.looseObject({
  'upload-draft': draftHeader,
  'tus-resumable': TUS_RESUMABLE,
  'upload-offset': tusHeader('Posisi awal potongan ini; harus sama dengan posisi yang tersimpan (HEAD).'),
});
const resumableHeaders = v.looseObject({ 'upload-draft': draftHeader, 'tus-resumable': TUS_RESUMABLE });

/** The tus reply headers the client reads; CORS and anything else tus might add stay out. */
const PASSED_HEADERS = [
  'tus-resumable',
  'tus-version',
  'tus-extension',
  'tus-max-size',
  'upload-offset',
  'upload-length',
  'upload-metadata',
  'upload-expires',
  'location',
  'cache-control',
];

/** A tus refusal as a problem: ours travel as problem JSON, tus's own (English) texts are replaced. */
function problemOf(status: number, body: string): ApiProblem {
  try {
    const parsed = JSON.parse(body) as { type?: string; detail?: string; errors?: Record<string, string> };
    const type = parsed.type?.slice(PROBLEM_TYPE_BASE.length) as ProblemType | undefined;
    if (type && type in PROBLEMS) {
      return new ApiProblem(type, {
        ...(parsed.detail ? { detail: parsed.detail } : {}),
        ...(parsed.errors ? { errors: parsed.errors } : {}),
      });
    }
  } catch {
    // tus's own plain-text body
  }
  if (status === 404 || status === 410) return new ApiProblem('not-found');
  if (status === 409) return new ApiProblem('conflict', { detail: PROBLEM_MESSAGES.uploadOffsetMismatch });
  if (status === 413) return new ApiProblem('payload-too-large');
  if (status === 423) return new ApiProblem('busy', { retryAfter: 1 });
  if (status >= 500) return new ApiProblem('internal', { cause: `tus ${status}` });
  return new ApiProblem('bad-request', {
    status: status === 415 || status === 412 ? status : 400,
    detail: PROBLEM_MESSAGES.uploadRequestInvalid,
  });
}

function headersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  try {
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
  } catch (error) {
    // A header value the Fetch API refuses (characters outside Latin-1): the client's mistake.
    throw new ApiProblem('bad-request', { detail: PROBLEM_MESSAGES.uploadRequestInvalid, cause: error });
  }
  return headers;
}

/** The caller a draft records: the session's user, else a guest (draft-rules.ts). */
export const requestOwner = (request: FastifyRequest) => draftOwnerOf(request.session?.user.id);

/** The header's draft, if this caller opened it; anything else is the same 404 as an unknown token. */
async function draftOf(drafts: Drafts, request: FastifyRequest): Promise<Draft> {
  const draft = await drafts.find(request.headers['upload-draft'] as string | undefined);
  if (!draft || !ownsDraft(draft, requestOwner(request))) {
    throw new ApiProblem('not-found', { detail: PROBLEM_MESSAGES.uploadDraftMissing });
  }
  return draft;
}

/** Tambah Bukti's binding: the case, and the room it still has (a full case opens no draft). */
function evidenceBinding(request: FastifyRequest, found: LegacyCase): DraftBinding {
  const room = ATTACHMENTS_PER_CASE - (found.attachments ?? []).length;
  if (room <= 0) {
    throw new ApiProblem('validation', { errors: { attachments: UI_MESSAGES.attachmentsLimitReached } });
  }
  return { purpose: 'evidence', owner: requestOwner(request), caseRef: caseRefOf(found), room };
}

/** The draft's record of an upload; another draft's upload, or an unknown one, is 404 alike. */
async function uploadOf(drafts: Drafts, draft: Draft, id: string): Promise<DraftFile> {
  const record = await drafts.file(draft.id, id);
  if (!record) throw new ApiProblem('not-found');
  return record;
}

export default async function uploadRoutes(app: FastifyInstance) {
  const { drafts } = app.uploads;
  const contexts = new WeakMap<Request, TusRequestContext>();
  const tus = createTusServer(drafts, (req) => contexts.get(req));
  const draftFlood = await floodLimiter(app, { name: 'upload-drafts', ...app.config.uploads.drafts });
  const uploadFlood = await floodLimiter(app, {
    name: 'uploads',
    ...app.config.uploads.drafts,
    // Five files a draft, and a few replaced: counted per file created.
    maxPerClient: app.config.uploads.drafts.maxPerClient * 10,
    maxGlobal: app.config.uploads.drafts.maxGlobal * 10,
  });

  const proveTracker = await trackerProof(app);

  async function openDraft(reply: FastifyReply, binding: DraftBinding): Promise<UploadDraftReply> {
    const { token, expiresAt } = await drafts.open(binding);
    reply.code(201).header('cache-control', 'no-store');
    return { token, expiresAt: expiresAt.toISOString() };
  }

  // tus bodies are read by @tus/server itself, as a stream, straight to the file store.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  async function viaTus(request: FastifyRequest, reply: FastifyReply, draft: Draft): Promise<FastifyReply> {
    const withBody = request.method === 'PATCH';
    let release = () => {};
    let stopWatching = () => {};
    if (withBody) {
      try {
        release = takeUploadSlot(app.uploads.spools, app.uploads.settings, clientOf(request));
      } catch (error) {
        // Refused before a byte was read: drained, so the client reads the 503 and retries later.
        request.raw.resume();
        throw error;
      }
      // A PATCH gone silent is cut as a multipart body is (its bytes so far stay: the client resumes
      // from the offset); the watch ends with the body, before the last PATCH's check and scrub.
      stopWatching = watchIdleBody(request, app.uploads.settings.idleTimeoutMs);
      request.raw.once('end', stopWatching);
    }
    try {
      return await handOver(request, reply, draft, withBody);
    } catch (error) {
      // Cut for silence, or the client hung up: an interrupted upload, not a fault of the request.
      if (withBody && clientHungUp(request)) {
        throw new ApiProblem('bad-request', { detail: PROBLEM_MESSAGES.uploadInterrupted, cause: error });
      }
      throw error;
    } finally {
      request.raw.off('end', stopWatching);
      stopWatching();
      release();
    }
  }

  async function handOver(
    request: FastifyRequest,
    reply: FastifyReply,
    draft: Draft,
    withBody: boolean,
  ): Promise<FastifyReply> {
    const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers: headersOf(request) };
    if (withBody) {
      init.body = Readable.toWeb(request.raw) as ReadableStream;
      init.duplex = 'half';
    }
    const webRequest = new Request(new URL(request.url, 'http://gateway.invalid'), init);
    contexts.set(webRequest, { draft, scrubbing: request.scrubbing, log: request.log });
    const response = await tus.server.handleWeb(webRequest);
    const body = await response.text();
    if (response.status >= 400) {
      // A body tus did not read (refused before it) is drained, so the client gets the answer.
      if (withBody && !request.raw.readableEnded) request.raw.resume();
      throw problemOf(response.status, body);
    }
    for (const name of PASSED_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) reply.header(name, value);
    }
    return reply.code(response.status).send();
  }

  app.post(
    '/upload-drafts',
    {
      config: { policy: 'cases:create' },
      schema: routeSchema({
        summary: 'Buka draf unggahan',
        description:
          'Draf menampung file laporan yang diunggah dengan tus sampai laporan dikirim (POST /cases dengan ' +
          'header `Upload-Draft`). Berlaku 24 jam; token hanya disimpan di memori halaman.',
        tags: TAGS,
        response: { 201: uploadDraftReply },
      }),
    },
    async (request, reply): Promise<UploadDraftReply> => {
      await draftFlood.consume(request, reply);
      return openDraft(reply, { purpose: 'case', owner: requestOwner(request), caseRef: null, room: null });
    },
  );

  app.post<{ Params: IdParams }>(
    '/cases/:id/attachments/upload-drafts',
    {
      config: { policy: 'case-evidence:add' },
      schema: routeSchema({
        summary: 'Buka draf unggahan Tambah Bukti',
        description:
          'Pelapor (tipe 6), laporan miliknya. Draf hanya untuk Tambah Bukti laporan ini oleh pengguna ini ' +
          '(POST /cases/{id}/attachments dengan header `Upload-Draft`); jumlah file paling banyak sisa tempat ' +
          'lampiran laporan (total 5).',
        tags: TAGS,
        params: idParams,
        response: { 201: uploadDraftReply },
      }),
    },
    async (request, reply): Promise<UploadDraftReply> => {
      await draftFlood.consume(request, reply);
      const found = await loadCaseInScope(request.caller, request.params.id);
      return openDraft(reply, evidenceBinding(request, found));
    },
  );

  app.post<{ Body: TrackingRequest }>(
    '/tracking/attachments/upload-drafts',
    {
      config: { policy: 'tracking:use' },
      schema: routeSchema({
        summary: 'Buka draf unggahan Tambah Bukti (Pantau Laporan)',
        description:
          'Publik: `caseNumber` dan `password` dibuktikan seperti POST /tracking (404 sama setelah waktu minimum ' +
          'yang sama, batas percobaan dengan 429). Draf hanya untuk Tambah Bukti laporan itu ' +
          '(POST /tracking/attachments dengan header `Upload-Draft`).',
        tags: ['tracking'],
        body: trackingRequest,
        response: { 201: uploadDraftReply },
      }),
    },
    async (request, reply): Promise<UploadDraftReply> => {
      await draftFlood.consume(request, reply);
      const found = await proveTracker(request, reply, 'tracking-evidence-draft');
      return openDraft(reply, evidenceBinding(request, found));
    },
  );

  app.post<{ Params: IdParams }>(
    '/cases/:id/logs/upload-drafts',
    {
      config: { policy: 'case-logs:create' },
      schema: routeSchema({
        summary: 'Buka draf unggahan lampiran catatan aktivitas',
        description:
          'Penangan dengan laporan dalam cakupannya. Draf hanya untuk catatan aktivitas laporan ini oleh ' +
          'pengguna ini (POST /cases/{id}/logs dengan header `Upload-Draft`): satu file `attachments`.',
        tags: ['cases'],
        params: idParams,
        response: { 201: uploadDraftReply },
      }),
    },
    async (request, reply): Promise<UploadDraftReply> => {
      await draftFlood.consume(request, reply);
      const found = await loadCaseInScope(request.caller, request.params.id);
      return openDraft(reply, {
        purpose: 'log',
        owner: requestOwner(request),
        caseRef: caseRefOf(found),
        room: null,
      });
    },
  );

  app.get(
    '/upload-drafts/files',
    {
      config: { policy: 'uploads:use' },
      schema: routeSchema({
        summary: 'File dalam draf unggahan',
        description: 'Setiap file draf dengan statusnya; file yang ditolak membawa alasannya (`reason`).',
        tags: TAGS,
        headers: draftHeaders,
        response: { 200: uploadDraftFilesReply },
      }),
    },
    async (request, reply): Promise<UploadDraftFilesReply> => {
      const draft = await draftOf(drafts, request);
      const files = await settlePending(drafts, { draft, scrubbing: request.scrubbing, log: request.log });
      reply.header('cache-control', 'no-store');
      return {
        items: files.map(({ id, field, name, size, state, reason }) => ({
          id,
          field,
          name,
          size,
          state,
          reason,
        })),
      };
    },
  );

  app.post(
    '/uploads',
    {
      config: { policy: 'uploads:use' },
      schema: routeSchema({
        summary: 'Mulai unggahan (tus: creation)',
        description:
          'Protokol tus 1.0. Pemeriksaan saat dibuat: jenis file, nama ganda, ukuran (maks. 10 MB), jumlah ' +
          '(maks. 5 per draf, 1 Bukti Pendukung). Alamat unggahan ada di header `Location`.',
        tags: TAGS,
        headers: creationHeaders,
        response: { 201: null },
      }),
    },
    async (request, reply) => {
      const draft = await draftOf(drafts, request);
      await uploadFlood.consume(request, reply);
      return viaTus(request, reply, draft);
    },
  );

  app.head<{ Params: { id: string } }>(
    '/uploads/:id',
    {
      config: { policy: 'uploads:use' },
      schema: routeSchema({
        summary: 'Posisi unggahan (tus: HEAD)',
        description: 'Header `Upload-Offset`: byte yang sudah diterima; lanjutkan dari sana.',
        tags: TAGS,
        params: uploadIdParams,
        headers: resumableHeaders,
        response: { 200: null },
      }),
    },
    async (request, reply) => {
      const draft = await draftOf(drafts, request);
      await uploadOf(drafts, draft, request.params.id);
      return viaTus(request, reply, draft);
    },
  );

  app.patch<{ Params: { id: string } }>(
    '/uploads/:id',
    {
      config: { policy: 'uploads:use' },
      schema: routeSchema({
        summary: 'Kirim potongan unggahan (tus: PATCH)',
        description:
          'Isi `application/offset+octet-stream` mulai dari `Upload-Offset`. Saat byte terakhir tiba, file ' +
          'diperiksa dan dibersihkan metadatanya; hasilnya di GET /upload-drafts/files.',
        tags: TAGS,
        params: uploadIdParams,
        headers: patchHeaders,
        response: { 204: null },
      }),
    },
    async (request, reply) => {
      const draft = await draftOf(drafts, request);
      await uploadOf(drafts, draft, request.params.id);
      return viaTus(request, reply, draft);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/uploads/:id',
    {
      config: { policy: 'uploads:use' },
      schema: routeSchema({
        summary: 'Hapus unggahan (tus: termination)',
        description: 'Menghapus file dari draf (Hapus di formulir), selesai atau belum.',
        tags: TAGS,
        params: uploadIdParams,
        headers: resumableHeaders,
        response: { 204: null },
      }),
    },
    async (request, reply) => {
      const draft = await draftOf(drafts, request);
      await uploadOf(drafts, draft, request.params.id);
      if (draft.filedAt !== null) throw new ApiProblem('not-found');
      await drafts.removeFile(draft.id, request.params.id);
      return reply.code(204).header('tus-resumable', '1.0.0').send();
    },
  );
}
