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
 * - the attachment goes through the same upload checks and scrubbing as the wizard's files.
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
import { scrubFiles } from '../../uploads/scrub.ts';
import { validUpload, withSpooledUpload } from '../../uploads/spool.ts';

type Params = v.InferOutput<typeof idParams>;

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
        summary: 'Buat catatan aktivitas (multipart/form-data)',
        description:
          'Status: urutan sama atau satu lebih tinggi dari status saat ini (bukan urutan 1; status 1 dianggap 11); ' +
          'laporan berstatus akhir hanya menerima catatan dengan status yang sama. ' +
          '`caseLineId` wajib saat status saat ini 1 atau 11; staff perusahaan tidak dapat mengubah jalur. ' +
          'Satu `attachment` opsional (maks. 10 MB).',
        tags: ['cases'],
        params: idParams,
        multipart: { fields: caseLogMultipartDoc, files: ['attachment'] },
        response: { 201: messageReply },
      }),
    },
    async (request, reply) => {
      await flood.consume(request, reply);
      // Scope first, before a byte of the body is read: an out-of-scope id costs no upload.
      const legacyCase = await loadCaseInScope(request.caller, request.params.id);
      const currentStatusId = legacyCase.caseCaseStatusId ?? 1;
      const needsLine = requiresCaseLine(currentStatusId);
      const companyStaff = request.session?.user.userTypeId === USER_TYPES.COMPANY_STAFF;

      const message = await withSpooledUpload(request, CASE_LOG_FILES, async (upload) => {
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
        const [attachment = null] = await scrubFiles(request.scrubbing, upload.files);
        const messages = await addCaseLog(
          request.legacy,
          {
            caseId: legacyCase.caseId,
            companyId: legacyCase.caseCompanyId,
            message: input.message,
            caseLineId: lineId,
            statusId: input.statusId,
          },
          attachment,
        );
        await noteLoggedChange(request, legacyCase, { statusId: input.statusId, lineId });
        audit(request, 'case-log-created', {
          resource: 'case',
          resourceId: legacyCase.caseId,
          statusId: input.statusId,
          attachment: attachment !== null,
        });
        return messages[0] ?? '';
      });
      return reply.code(201).send({ message });
    },
  );
}
