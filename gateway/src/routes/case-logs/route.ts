/**
 * POST /cases/{id}/logs: Buat Catatan Aktivitas (multipart: statusId, caseLineId?, message, one
 * optional attachment). Enforced here, never left to the client (spec §4, §5, §6):
 * - policy `case-logs:create` (types 2, 3; types 4 and 5 with role 1) and the case in the caller's scope;
 * - the status must be one of the log form's choices (same integer order as the current status or
 *   one higher, never order 1; current status 1 counts as 11); a case in a final status (absent from
 *   the legacy's open list) takes notes in that status only, never a status change;
 * - a line is required when the current status id is 1 or 11; company staff (type 4) cannot change
 *   the line (the case's line, or its own line for a case not yet routed); above status 11 the line
 *   is sent as null;
 * - the attachment goes through the same upload checks and scrubbing as the wizard's files; uploaded
 *   resumably (docs/adr/0066-resumable-evidence-uploads.md), it is the one file of a log draft of this
 *   case opened by this user (routes/uploads), named by `Upload-Draft`, and the post carries only its
 *   text parts; another draft is answered as an unknown one;
 * - with `Idempotency-Key` a retried post saves the entry once and answers the same.
 */

import { CASE_LOG_FILES, caseLogMultipartDoc, parseCaseLogFields } from '@wbs/shared/api/case-create';
import { idParams, messageReply } from '@wbs/shared/api/common';
import { USER_TYPES } from '@wbs/shared/constants';
import { FIELD_MESSAGES } from '@wbs/shared/messages';
import { caseLineForLog, nextStatusChoices, requiresCaseLine } from '@wbs/shared/status';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { noteCaseChange } from '../../case-index/watcher.ts';
import { ApiProblem } from '../../errors.ts';
import type { LegacyCase } from '../../legacy/case-schemas.ts';
import { addCaseLog } from '../../legacy/cases.ts';
import { caseStatusTable } from '../../legacy/reference.ts';
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { floodLimiter } from '../../policies/flood-limits.ts';
import { routeSchema } from '../../schema.ts';
import { caseRefOf, draftOwnerOf, fitsDraft } from '../../uploads/draft-rules.ts';
import type { Draft } from '../../uploads/drafts.ts';
import { runIdempotent, submissionFingerprint } from '../../uploads/idempotency.ts';
import { scrubFiles } from '../../uploads/scrub.ts';
import { validUpload, withSpooledUpload } from '../../uploads/spool.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';
import { draftMissing, draftUpload, headerDraft, NO_FILE_PARTS } from '../upload-draft.ts';

type Params = v.InferOutput<typeof idParams>;

/** The form's one file field (spec §5), where a draft's problems are named. */
const FILE_FIELD = 'attachment';

async function statusChoices(request: FastifyRequest, currentStatusId: number) {
  const table = await caseStatusTable(request.legacy);
  return new Set(nextStatusChoices(table, currentStatusId).map((s) => s.id));
}

/**
 * The saved entry's status and line go to the case index at once (case-index/, the sweep would see
 * them later). The log is saved whatever the store says: a failure only leaves it to the sweep.
 */
async function noteLoggedChange(
  request: FastifyRequest,
  legacyCase: LegacyCase,
  entry: { statusId: number; lineId: number | null },
): Promise<void> {
  try {
    const store = await request.server.store.open();
    await noteCaseChange(store, store.cases.bind(legacyCase), {
      statusId: entry.statusId,
      // 'null' keeps the case's line at the legacy.
      lineId: entry.lineId ?? legacyCase.caseCaseLineId,
    });
  } catch (error) {
    request.log.warn({ err: { message: (error as Error).message } }, 'case index: logged change not noted');
  }
}

/** The log draft the `Upload-Draft` header names, if it is this user's for this case; null without one. */
async function logDraft(request: FastifyRequest, legacyCase: LegacyCase): Promise<Draft | null> {
  const draft = await headerDraft(request, FILE_FIELD);
  const expected = {
    purpose: 'log' as const,
    owner: draftOwnerOf(request.session?.user.id),
    caseRef: caseRefOf(legacyCase),
  };
  if (draft && !fitsDraft(draft, expected)) throw draftMissing(FILE_FIELD);
  return draft;
}

/** The line a company staff member's entry keeps: the case's, or its own for a case not yet routed. */
function staffLine(request: FastifyRequest, legacyCase: LegacyCase): number | null {
  return legacyCase.caseCaseLineId ?? request.session?.user.caseLineId ?? null;
}

export default async function caseLogRoutes(app: FastifyInstance) {
  const flood = await floodLimiter(app, { name: 'case-logs', ...app.config.caseLogs });
  app.post<{ Params: Params }>(
    '/cases/:id/logs',
    {
      config: { policy: 'case-logs:create' },
      schema: routeSchema({
        idempotent: true,
        summary: 'Buat catatan aktivitas (multipart/form-data)',
        description:
          'Status: urutan sama atau satu lebih tinggi dari status saat ini (bukan urutan 1; status 1 dianggap 11); ' +
          'laporan berstatus akhir hanya menerima catatan dengan status yang sama. ' +
          '`caseLineId` wajib saat status saat ini 1 atau 11; staff perusahaan tidak dapat mengubah jalur. ' +
          'Satu `attachment` opsional (maks. 10 MB), atau header `Upload-Draft` (draf catatan aktivitas laporan ini ' +
          'dari pengguna yang sama; hanya bagian teks yang dikirim). Header opsional `Idempotency-Key`: kiriman ' +
          'ulang dengan kunci dan isi yang sama menyimpan catatan sekali dan menjawab sama.',
        tags: ['cases'],
        params: idParams,
        multipart: { fields: caseLogMultipartDoc, files: ['attachment'] },
        response: { 201: messageReply },
      }),
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request);
      await flood.consume(request, reply, key);
      // Scope first, before a byte of the body is read: an out-of-scope id costs no upload.
      const legacyCase = await loadCaseInScope(request.caller, request.params.id);
      const currentStatusId = legacyCase.caseCaseStatusId ?? 1;
      const needsLine = requiresCaseLine(currentStatusId);
      const companyStaff = request.session?.user.userTypeId === USER_TYPES.COMPANY_STAFF;
      const draft = await logDraft(request, legacyCase);

      const message = await withSpooledUpload(
        request,
        draft ? NO_FILE_PARTS : CASE_LOG_FILES,
        async (received) => {
          const upload = draft
            ? await draftUpload(request, draft, received, { required: null, fieldOf: () => FILE_FIELD })
            : received;
          const fields = { ...upload.fields };
          const fixedLine = companyStaff ? staffLine(request, legacyCase) : null;
          if (companyStaff && (fields.caseLineId ?? '').trim() === '' && fixedLine !== null) {
            fields.caseLineId = String(fixedLine);
          }
          const input = validUpload(parseCaseLogFields(fields, needsLine), upload);
          if (!(await statusChoices(request, currentStatusId)).has(input.statusId)) {
            throw new ApiProblem('validation', { errors: { statusId: FIELD_MESSAGES.statusInvalid } });
          }
          const lineId = caseLineForLog(currentStatusId, input.caseLineId);
          if (companyStaff && lineId !== null && lineId !== fixedLine) {
            throw new ApiProblem('validation', { errors: { caseLineId: FIELD_MESSAGES.logLineInvalid } });
          }
          const entry = {
            caseId: legacyCase.caseId,
            companyId: legacyCase.caseCompanyId,
            message: input.message,
            caseLineId: lineId,
            statusId: input.statusId,
          };
          const fingerprint = submissionFingerprint(request.server.config.sessionSecret, {
            entry,
            files: upload.files.map((f) => [f.name, f.sha256]),
          });
          return runIdempotent<string>(
            request.idempotency,
            { scope: 'case-log', namespace: `user:${request.session?.user.id}`, key, fingerprint },
            async () => {
              // A filed draft's bytes are gone: only a retry the idempotency store still answers may use it.
              if (draft?.filedAt != null) throw draftMissing(FILE_FIELD);
              // A draft's file was scrubbed when its upload completed.
              const [attachment = null] = draft
                ? upload.files
                : await scrubFiles(request.scrubbing, upload.files);
              const messages = await addCaseLog(request.legacy, entry, attachment);
              if (draft) await request.server.uploads.drafts.markFiled(draft);
              await noteLoggedChange(request, legacyCase, { statusId: input.statusId, lineId });
              audit(request, 'case-log-created', {
                resource: 'case',
                resourceId: legacyCase.caseId,
                statusId: input.statusId,
                attachment: attachment !== null,
              });
              return messages[0] ?? '';
            },
          );
        },
      );
      return reply.code(201).send({ message });
    },
  );
}
