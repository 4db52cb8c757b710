/**
 * Downloads of a case's attachments and of an activity log's attachment. The case is loaded with the
 * same scope rules as the detail first, and the file must belong to that case: an id of another
 * case's (or company's) file is 404. Log attachments need `case-logs:read-full` (types 2–5). Every
 * file of an identified report needs a second factor used within ten minutes (step-up): it can name
 * the reporter.
 */
import { caseAttachmentParams, caseLogParams } from '@wbs/shared/api/cases';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import type * as v from 'valibot';
import { attachmentDownload, logAttachmentDownload } from '../../legacy/cases.ts';
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { assertRecentFactor } from '../../policies/plugin.ts';
import { outOfScope } from '../../policies/scope.ts';
import { isAnonymousCase } from '../../presenters/cases.ts';
import { shownFileName } from '../../uploads/policy.ts';
import { downloadSchema, sendDownload } from './files.ts';

/** Streams one legacy file of a case already loaded in scope, with its audit line. */
async function streamCaseFile(
  request: FastifyRequest,
  reply: FastifyReply,
  upstream: Dispatcher.ResponseData,
  file: { resource: string; resourceId: number; caseId: number; name: string },
) {
  audit(request, 'download', { resource: file.resource, resourceId: file.resourceId, caseId: file.caseId });
  return sendDownload(reply, upstream, file.name);
}

export function caseDownloadRoutes(app: FastifyInstance, tags: string[]) {
  app.get<{ Params: v.InferOutput<typeof caseAttachmentParams> }>(
    '/cases/:id/attachments/:attachmentId',
    {
      config: { policy: 'case-attachments:download' },
      schema: downloadSchema({ summary: 'Unduh lampiran laporan', tags, params: caseAttachmentParams }),
    },
    async (request, reply) => {
      const { id, attachmentId } = request.params;
      const found = await loadCaseInScope(request.caller, id);
      const attachment = (found.attachments ?? []).find((a) => a.attachmentId === attachmentId);
      if (!attachment) throw outOfScope(request.caller, 'case-attachment', attachmentId);
      // An identified reporter's files can name them: a fresh second factor first (step-up).
      if (!isAnonymousCase(found)) await assertRecentFactor(request, reply);
      const upstream = await attachmentDownload(request.legacy, found.caseCompanyId, attachmentId);
      return streamCaseFile(request, reply, upstream, {
        resource: 'case-attachment',
        resourceId: attachmentId,
        caseId: found.caseId,
        name: shownFileName(attachment.attachmentName) ?? 'lampiran',
      });
    },
  );

  app.get<{ Params: v.InferOutput<typeof caseLogParams> }>(
    '/cases/:id/logs/:logId/attachment',
    {
      config: { policy: 'case-logs:read-full' },
      schema: downloadSchema({ summary: 'Unduh lampiran catatan aktivitas', tags, params: caseLogParams }),
    },
    async (request, reply) => {
      const { id, logId } = request.params;
      const found = await loadCaseInScope(request.caller, id);
      const log = (found.caselogs ?? []).find((l) => l.caseLogId === logId);
      const name = log?.caseLogAttachmentName ?? log?.caseLogAttachmentFile;
      if (!log || !name) throw outOfScope(request.caller, 'case-log-attachment', logId);
      if (!isAnonymousCase(found)) await assertRecentFactor(request, reply);
      const upstream = await logAttachmentDownload(request.legacy, found.caseCompanyId, logId);
      return streamCaseFile(request, reply, upstream, {
        resource: 'case-log-attachment',
        resourceId: logId,
        caseId: found.caseId,
        name: shownFileName(name) ?? 'lampiran',
      });
    },
  );
}
