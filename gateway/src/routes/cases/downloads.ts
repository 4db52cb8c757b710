/**
 * Downloads of a case's attachments and of an activity log's attachment. The case is loaded with the
 * same scope rules as the detail first, and the file must belong to that case: an id of another
 * case's (or company's) file is 404. Log attachments need `case-logs:read-full` (types 2–5).
 */
import { caseAttachmentParams, caseLogParams } from '@wbs/shared/api/cases';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as v from 'valibot';
import { seg } from '../../legacy/client.ts';
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { outOfScope } from '../../policies/scope.ts';
import { downloadSchema, sendDownload } from './files.ts';

/** Streams one legacy file of a case already loaded in scope, with its audit line. */
async function streamCaseFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: { call: string; path: string; resource: string; resourceId: number; caseId: number; name: string },
) {
  const upstream = await request.legacy.stream({
    name: file.call,
    method: 'GET',
    path: file.path,
    headers: { accept: '*/*' },
  });
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
      const found = await loadCaseInScope(request, id);
      const attachment = (found.attachments ?? []).find((a) => a.attachmentId === attachmentId);
      if (!attachment) throw outOfScope(request, 'case-attachment', attachmentId);
      return streamCaseFile(request, reply, {
        call: 'WBSCase.downloadAttachment',
        path: `/WBSCase/DownloadAttachement/${seg(found.caseCompanyId)}/${seg(attachmentId)}`,
        resource: 'case-attachment',
        resourceId: attachmentId,
        caseId: found.caseId,
        name: attachment.attachmentName ?? 'lampiran',
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
      const found = await loadCaseInScope(request, id);
      const log = (found.caselogs ?? []).find((l) => l.caseLogId === logId);
      const name = log?.caseLogAttachmentName ?? log?.caseLogAttachmentFile;
      if (!log || !name) throw outOfScope(request, 'case-log-attachment', logId);
      return streamCaseFile(request, reply, {
        call: 'WBSCase.downloadLogAttachment',
        path: `/WBSCase/DownloadCaseLogAttachement/${seg(found.caseCompanyId)}/${seg(logId)}`,
        resource: 'case-log-attachment',
        resourceId: logId,
        caseId: found.caseId,
        name,
      });
    },
  );
}
