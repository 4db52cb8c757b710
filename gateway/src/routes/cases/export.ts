/** POST /cases/export: the legacy Excel export of the caller's scope, streamed through. */
import { type CaseExportRequest, caseExportRequest } from '@wbs/shared/api/cases';
import type { FastifyInstance } from 'fastify';
import { audit } from '../../logging.ts';
import { outOfScope } from '../../policies/scope.ts';
import { downloadSchema, legacyFileName, sendDownload } from './files.ts';
import { legacyCaseFilters } from './list.ts';
import { caseEndpointsOf } from './scope.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The legacy's name, kept as it is when it has the expected form. */
const LEGACY_NAME = /^AllCases - [0-9][0-9 .:-]{0,30}\.xlsx$/;

/** 'AllCases - YYYY-MM-DD HH.mm.ss.xlsx' in WIB, when the legacy sent no usable name. */
function fallbackName(now = Date.now()): string {
  const wib = new Date(now + 7 * 3600_000).toISOString();
  return `AllCases - ${wib.slice(0, 10)} ${wib.slice(11, 19).replaceAll(':', '.')}.xlsx`;
}

export function caseExportRoutes(app: FastifyInstance, tags: string[]) {
  app.post<{ Body: CaseExportRequest }>(
    '/cases/export',
    {
      config: { policy: 'cases:export' },
      schema: downloadSchema({ summary: 'Ekspor laporan (.xlsx)', tags, body: caseExportRequest }, [XLSX]),
    },
    async (request, reply) => {
      const body = request.body;
      const target = (await caseEndpointsOf(request, body.companyId)).export;
      // The policy already keeps out whoever has no export; this only satisfies the type.
      if (!target) throw outOfScope(request, 'case-export', null);
      const upstream = await request.legacy.stream({
        name: target.name,
        method: 'POST',
        path: target.path,
        headers: { accept: '*/*', 'content-type': 'application/json' },
        body: JSON.stringify({ ...legacyCaseFilters(body), ...target.scope }),
      });
      const name = legacyFileName(upstream.headers['content-disposition']);
      audit(request, 'export', {
        resource: 'cases',
        companyId: target.scope.caseCompanyId ?? null,
        from: body.from,
        to: body.to,
      });
      return sendDownload(reply, upstream, name && LEGACY_NAME.test(name) ? name : fallbackName());
    },
  );
}
