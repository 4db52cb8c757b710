/**
 * Tambah Bukti: the reporter adds attachments to its case after filing, through the legacy's
 * add-attachments call (`POST /WBSCase/Attachment`, multipart `{CaseId, CaseCompanyId, attachments…}`).
 * - `POST /cases/{id}/attachments`: the signed-in pelapor (type 6), its own cases only
 *   (`loadCaseInScope`), with its own legacy token;
 * - `POST /tracking/attachments`: the tracker, number and password as multipart text parts, proven
 *   exactly as every tracker call (limits, equal-time 404); the legacy call then goes with the
 *   gateway's service account (legacy/service-account.ts), since a tracker has no token.
 * The wizard's checks apply (gateway/src/uploads: type, content, 10 MB, duplicate names, scrubbing),
 * plus the per-case total of 5 counting the attachments already there and no name already used on
 * the case. A post is idempotent per case with `Idempotency-Key`.
 *
 * Files uploaded resumably (docs/adr/0066-resumable-evidence-uploads.md): with `Upload-Draft` the post
 * carries only its text parts and the draft's accepted files (checked and scrubbed as each upload
 * completed) go to the legacy in the same call. The draft must be a Tambah Bukti draft of this very
 * case, opened by the same caller (routes/uploads); any other is answered as an unknown draft.
 */
import {
  CASE_EVIDENCE_FILES,
  type CaseAttachmentsReply,
  caseAttachmentsReply,
  caseEvidenceMultipartDoc,
  parseTrackerEvidenceFields,
  trackerEvidenceMultipartDoc,
} from '@wbs/shared/api/case-evidence';
import { type IdParams, idParams } from '@wbs/shared/api/common';
import { ATTACHMENTS_PER_CASE } from '@wbs/shared/constants';
import { UI_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { addCaseAttachments } from '../../legacy/cases.ts';
import type { LegacyAuth } from '../../legacy/client.ts';
import { audit } from '../../logging.ts';
import { recordCaseEventQuietly } from '../../notifications/notifier.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { floodLimiter } from '../../policies/flood-limits.ts';
import { trackerProof } from '../../policies/tracker-proof.ts';
import { routeSchema } from '../../schema.ts';
import { storeCall } from '../../store/plugin.ts';
import { caseRefOf, draftOwnerOf, fitsDraft } from '../../uploads/draft-rules.ts';
import type { Draft } from '../../uploads/drafts.ts';
import { runIdempotent, submissionFingerprint } from '../../uploads/idempotency.ts';
import { fileMessages, shownFileName } from '../../uploads/policy.ts';
import { scrubFiles } from '../../uploads/scrub.ts';
import { type Upload, validUpload, withSpooledUpload } from '../../uploads/spool.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';
import { draftMissing, draftUpload, headerDraft, NO_FILE_PARTS } from '../upload-draft.ts';

const TAGS = ['cases'];
/** Where a Tambah Bukti's file problems are named. */
const FILE_FIELD = 'attachments';
const IDEMPOTENCY_NOTE =
  'Header opsional `Idempotency-Key`: kiriman ulang dengan kunci dan file yang sama menambah lampiran sekali ' +
  'dan menjawab sama; kunci yang sama dengan file lain: 409.';
const DRAFT_NOTE =
  'Dengan header `Upload-Draft` (draf Tambah Bukti laporan ini dari pemanggil yang sama) hanya bagian teks ' +
  'yang dikirim: file draf yang diterima diteruskan.';

/** The case's files against the upload: the per-case total, and no name the case already has. */
function checkAgainstCase(found: LegacyCase, upload: Upload): void {
  const existing = found.attachments ?? [];
  if (existing.length >= ATTACHMENTS_PER_CASE) {
    throw new ApiProblem('validation', { errors: { attachments: UI_MESSAGES.attachmentsLimitReached } });
  }
  if (existing.length + upload.files.length > ATTACHMENTS_PER_CASE) {
    throw new ApiProblem('validation', {
      errors: { attachments: fileMessages.tooMany(ATTACHMENTS_PER_CASE) },
    });
  }
  // The stored names in the form the legacy keeps them (form-data written), read as the real names the
  // upload carries now.
  const names = new Set(existing.map((a) => (shownFileName(a.attachmentName) ?? '').toLowerCase()));
  const errors: Record<string, string> = {};
  upload.files.forEach((file, index) => {
    if (names.has(file.name.toLowerCase()))
      errors[`attachments.${index}`] = fileMessages.duplicate(file.name);
  });
  if (Object.keys(errors).length > 0) throw new ApiProblem('validation', { errors });
}

/** The files of a Tambah Bukti draft of this case and caller, in place of the multipart upload's. */
function evidenceDraftUpload(
  request: FastifyRequest,
  draft: Draft,
  found: LegacyCase,
  upload: Upload,
): Promise<Upload> {
  const expected = {
    purpose: 'evidence' as const,
    owner: draftOwnerOf(request.session?.user.id),
    caseRef: caseRefOf(found),
  };
  if (!fitsDraft(draft, expected)) throw draftMissing(FILE_FIELD);
  return draftUpload(request, draft, upload, { required: CASE_EVIDENCE_FILES.required });
}

/**
 * Checks, scrubs (a draft's files were scrubbed as each upload completed) and sends the files once
 * per Idempotency-Key; replies with the case's attachments.
 */
async function addToCase(
  request: FastifyRequest,
  found: LegacyCase,
  upload: Upload,
  draft: Draft | null,
  withAuth: <T>(call: (auth: LegacyAuth | undefined) => Promise<T>) => Promise<T>,
): Promise<CaseAttachmentsReply> {
  const key = idempotencyKeyOf(request);
  const fingerprint = submissionFingerprint(request.server.config.sessionSecret, {
    case: [found.caseCompanyId, found.caseId],
    files: upload.files.map((f) => [f.name, f.sha256]),
  });
  return runIdempotent<CaseAttachmentsReply>(
    request.idempotency,
    { scope: 'evidence', namespace: `case:${found.caseCompanyId}:${found.caseId}`, key, fingerprint },
    async () => {
      // Inside the once-only work: a retry whose files did arrive gets the first reply, not "duplicate".
      // A filed draft's bytes are gone: only a retry the idempotency store still answers may use it.
      if (draft?.filedAt != null) throw draftMissing(FILE_FIELD);
      checkAgainstCase(found, upload);
      const scrubbed = draft ? upload.files : await scrubFiles(request.scrubbing, upload.files);
      const { attachments, messages } = await withAuth((auth) =>
        addCaseAttachments(
          request.legacy,
          { caseId: found.caseId, companyId: found.caseCompanyId },
          scrubbed,
          auth,
        ),
      );
      if (draft) await request.server.uploads.drafts.markFiled(draft);
      audit(request, 'evidence-added', {
        resource: 'case',
        resourceId: found.caseId,
        files: scrubbed.length,
      });
      // The files are at the legacy: the handlers' notice must not undo that if the store fails.
      await storeCall(request, (store) =>
        recordCaseEventQuietly(store, request.log, {
          kind: 'reporter-evidence',
          companyId: found.caseCompanyId,
          caseId: found.caseId,
          caseBinding: store.cases.bind(found).binding,
          lineId: found.caseCaseLineId,
          facts: { files: scrubbed.length },
        }),
      ).catch(() => {});
      request.server.notices.deliverSoon();
      return {
        message: messages[0] ?? '',
        attachments: attachments.map((a) => ({
          id: a.attachmentId,
          name: shownFileName(a.attachmentName) ?? 'lampiran',
        })),
      };
    },
  );
}

export default async function caseEvidenceRoutes(app: FastifyInstance) {
  const flood = await floodLimiter(app, { name: 'case-evidence', ...app.config.caseLogs });
  const proveTracker = await trackerProof(app);
  const service = app.serviceAccount;

  app.post<{ Params: IdParams }>(
    '/cases/:id/attachments',
    {
      config: { policy: 'case-evidence:add' },
      schema: routeSchema({
        summary: 'Tambah bukti (multipart/form-data)',
        description:
          'Pelapor (tipe 6), laporan miliknya: `attachments` (berulang), pemeriksaan dan pembersihan seperti ' +
          `formulir laporan; total per laporan maks. 5 termasuk yang sudah ada. ${IDEMPOTENCY_NOTE} ${DRAFT_NOTE}`,
        tags: TAGS,
        params: idParams,
        multipart: { fields: caseEvidenceMultipartDoc, files: ['attachments'] },
        response: { 201: caseAttachmentsReply },
      }),
    },
    async (request, reply) => {
      await flood.consume(request, reply, idempotencyKeyOf(request));
      // Scope first, before a byte of the body is read: an out-of-scope id costs no upload.
      const found = await loadCaseInScope(request.caller, request.params.id);
      const draft = await headerDraft(request, FILE_FIELD);
      const rule = draft ? NO_FILE_PARTS : CASE_EVIDENCE_FILES;
      const result = await withSpooledUpload(request, rule, async (received) => {
        const upload = draft ? await evidenceDraftUpload(request, draft, found, received) : received;
        validUpload({ ok: true, value: null }, upload);
        return addToCase(request, found, upload, draft, (call) => call(undefined));
      });
      return reply.code(201).send(result);
    },
  );

  app.post(
    '/tracking/attachments',
    {
      config: { policy: 'tracking:use' },
      schema: routeSchema({
        summary: 'Tambah bukti (Pantau Laporan, multipart/form-data)',
        description:
          'Publik: `caseNumber` dan `password` sebagai bagian teks (dibuktikan seperti POST /tracking: 404 sama ' +
          'setelah waktu minimum yang sama, batas percobaan dengan 429), lalu `attachments` (berulang); aturan ' +
          `file sama dengan POST /cases/{id}/attachments. ${IDEMPOTENCY_NOTE} ${DRAFT_NOTE}`,
        tags: ['tracking'],
        multipart: { fields: trackerEvidenceMultipartDoc, files: ['attachments'] },
        response: { 201: caseAttachmentsReply },
      }),
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      await flood.consume(request, reply, idempotencyKeyOf(request));
      const draft = await headerDraft(request, FILE_FIELD);
      const rule = draft ? NO_FILE_PARTS : CASE_EVIDENCE_FILES;
      const result = await withSpooledUpload(request, rule, async (received) => {
        // Whether a draft fits is only asked once the caller proved the case.
        const proof = validUpload(parseTrackerEvidenceFields(received.fields), received);
        const found = await proveTracker(request, reply, 'tracking-evidence', proof);
        const upload = draft ? await evidenceDraftUpload(request, draft, found, received) : received;
        validUpload({ ok: true, value: null }, upload);
        return addToCase(request, found, upload, draft, (call) => service.run(request.legacy, call));
      });
      return reply.code(201).send(result);
    },
  );
}
