/**
 * POST /cases/export: the legacy Excel export of the caller's scope, rewritten by the export presenter
 * (no reporter identity, real date cells, no formulas;
 * docs/adr/0013-excel-export-rewritten-by-the-gateway.md). The legacy's file is spooled to a
 * private folder, rewritten there and only then sent: a workbook that turns out damaged halfway is a
 * clean 502, never a truncated download.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type CaseExportRequest, caseExportRequest } from '@wbs/shared/api/cases';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiProblem } from '../../errors.ts';
import { caseFilters, exportDownload } from '../../legacy/cases.ts';
import { transportProblem } from '../../legacy/client.ts';
import { audit } from '../../logging.ts';
import { outOfScope } from '../../policies/scope.ts';
import { createExportRewriter } from '../../presenters/export-pool.ts';
import { UnreadableWorkbook } from '../../presenters/export-workbook.ts';
import { spoolPrefix } from '../../uploads/spool-dirs.ts';
import { downloadSchema, legacyFileName, sendFile } from './files.ts';
import { caseEndpointsOf } from './scope.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The legacy's name, kept as it is when it has the expected form. */
const LEGACY_NAME = /^AllCases - [0-9][0-9 .:-]{0,30}\.xlsx$/;
/** A 10,000-row legacy export is about 1 MB; far beyond that it is not an export. */
export const MAX_LEGACY_EXPORT_BYTES = 64 * 1024 * 1024;

/** 'AllCases - YYYY-MM-DD HH.mm.ss.xlsx' in WIB, when the legacy sent no usable name. */
function fallbackName(now = Date.now()): string {
  const wib = new Date(now + 7 * 3600_000).toISOString();
  return `AllCases - ${wib.slice(0, 10)} ${wib.slice(11, 19).replaceAll(':', '.')}.xlsx`;
}

class TooLarge extends Error {}

function byteLimit(max: number): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(size > max ? new TooLarge(`over ${max} bytes`) : null, chunk);
    },
  });
}

function badReply(request: FastifyRequest, legacyCall: string, reason: string): ApiProblem {
  request.log.error({ legacyCall, reason }, 'legacy bad reply');
  return new ApiProblem('legacy-bad-reply', { cause: reason });
}

export function caseExportRoutes(app: FastifyInstance, tags: string[]) {
  const rewriter = createExportRewriter();
  app.addHook('onClose', () => rewriter.close());
  app.post<{ Body: CaseExportRequest }>(
    '/cases/export',
    {
      config: { policy: 'cases:export', stepUp: true },
      schema: downloadSchema({ summary: 'Ekspor laporan (.xlsx)', tags, body: caseExportRequest }, [XLSX]),
    },
    async (request, reply) => {
      const body = request.body;
      const target = (await caseEndpointsOf(request, body.companyId)).export;
      // The policy already keeps out whoever has no export; this only satisfies the type.
      if (!target) throw outOfScope(request.caller, 'case-export', null);
      const dir = await mkdtemp(spoolPrefix());
      let file: { stream: Readable; size: number };
      let name: string | null;
      try {
        const upstream = await exportDownload(request.legacy, target, caseFilters(body));
        name = legacyFileName(upstream.headers['content-disposition']);
        const legacyPath = join(dir, 'legacy.xlsx');
        const exportPath = join(dir, 'export.xlsx');
        try {
          await pipeline(
            upstream.body,
            byteLimit(MAX_LEGACY_EXPORT_BYTES),
            createWriteStream(legacyPath, { mode: 0o600 }),
          );
        } catch (error) {
          if (error instanceof TooLarge) throw badReply(request, target.name, 'export too large');
          throw transportProblem(error);
        }
        try {
          await rewriter.rewrite({ legacyPath, exportPath });
        } catch (error) {
          if (!(error instanceof UnreadableWorkbook)) throw error;
          throw badReply(request, target.name, `unreadable export: ${error.message}`);
        }
        // Open before the folder goes: the open file stays readable, and nothing is left on disk.
        const stream = createReadStream(exportPath);
        await once(stream, 'open');
        file = { stream, size: (await stat(exportPath)).size };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      audit(request, 'export', {
        resource: 'cases',
        companyId: target.scope.caseCompanyId ?? null,
        from: body.from,
        to: body.to,
      });
      return sendFile(reply, file.stream, {
        name: name && LEGACY_NAME.test(name) ? name : fallbackName(),
        contentType: XLSX,
        size: String(file.size),
      });
    },
  );
}
