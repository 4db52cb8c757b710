/**
 * Downloads of a case's attachments and of an activity log's attachment. The case is loaded with the
 * same scope rules as the detail first, and the file must belong to that case: an id of another
 * case's (or company's) file is 404. Log attachments need `case-logs:read-full` (types 2–5).
 */
import { caseAttachmentParams, caseLogParams } from '@wbs/shared/api/cases';
import type { FastifyInstance } from 'fastify';
import type * as v from 'valibot';
import { seg } from '../../legacy/client.ts';
import { audit } from '../../logging.ts';
import { loadCaseInScope } from '../../policies/case-scope.ts';
import { outOfScope } from '../../policies/scope.ts';
import { downloadSchema, sendDownload } from './files.ts';

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
      const upstream = await request.legacy.stream({
        name: 'WBSCase.downloadAttachment',
        method: 'GET',
        path: `/WBSCase/DownloadAttachement/${seg(found.caseCompanyId)}/${seg(attachmentId)}`,
        headers: { accept: '*/*' },
      });
      audit(request, 'download', {
        resource: 'case-attachment',
        resourceId: attachmentId,
        caseId: found.caseId,
      });
      return sendDownload(reply, upstream, attachment.attachmentName ?? 'lampiran');
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
      const upstream = await request.legacy.stream({
        name: 'WBSCase.downloadLogAttachment',
        method: 'GET',
        path: `/WBSCase/DownloadCaseLogAttachement/${seg(found.caseCompanyId)}/${seg(logId)}`,
        headers: { accept: '*/*' },
      });
      audit(request, 'download', {
        resource: 'case-log-attachment',
        resourceId: logId,
        caseId: found.caseId,
      });
      return sendDownload(reply, upstream, name);
    },
  );
}
