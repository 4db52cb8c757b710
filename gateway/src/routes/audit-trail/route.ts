/**
 * GET /audit-trail/export: the audit trail of a period as CSV. The group administrator (type 1)
 * gets every record; a company admin (type 2) gets the records of its own company's staff (the
 * scope comes from the session, never from the request). Exporting is itself recorded.
 */
import {
  AUDIT_EXPORT_MAX_RECORDS,
  type AuditTrailExportQuery,
  auditTrailExportQuery,
} from '@wbs/shared/api/audit-trail';
import { USER_TYPES } from '@wbs/shared/constants';
import { FIELD_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { listAudit } from '../../audit/store.ts';
import { ApiProblem } from '../../errors.ts';
import { audit } from '../../logging.ts';
import { storeCall } from '../../store/plugin.ts';
import { contentDisposition, downloadSchema } from '../cases/files.ts';
import { auditCsv } from './csv.ts';

const DAY_MS = 86_400_000;

/** A WIB day's first instant (00:00 UTC+7). */
const wibDayStart = (day: string) => new Date(`${day}T00:00:00+07:00`);

function auditScopeOf(request: FastifyRequest): { companyId: number } | 'all' {
  const user = request.session?.user;
  if (user?.userTypeId === USER_TYPES.ADMINISTRATOR) return 'all';
  if (user?.userTypeId === USER_TYPES.COMPANY_ADMIN && user.companyId !== null) {
    return { companyId: user.companyId };
  }
  // The policy admits types 1 and 2 only; a type 2 without a company has no scope.
  throw new ApiProblem('forbidden');
}

export default async function auditTrailRoutes(app: FastifyInstance) {
  app.get<{ Querystring: AuditTrailExportQuery }>(
    '/audit-trail/export',
    {
      config: { policy: 'audit-trail:export', stepUp: true },
      schema: downloadSchema(
        {
          summary: 'Ekspor jejak audit (.csv)',
          description:
            'Catatan jejak audit (berantai hash) dalam periode `from`–`to` (hari WIB, inklusif). Tipe 1: ' +
            `semua catatan; tipe 2: catatan staf perusahaannya. Paling banyak ${AUDIT_EXPORT_MAX_RECORDS} ` +
            'catatan per ekspor (lebih dari itu: 400, pilih periode yang lebih pendek).',
          tags: ['audit'],
          querystring: auditTrailExportQuery,
        },
        ['text/csv'],
      ),
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const scope = auditScopeOf(request);
      const period = { from: wibDayStart(from), to: new Date(wibDayStart(to).getTime() + DAY_MS) };
      const records = await storeCall(request, (store) =>
        listAudit(store.db, period, scope, AUDIT_EXPORT_MAX_RECORDS + 1),
      );
      if (records.length > AUDIT_EXPORT_MAX_RECORDS) {
        throw new ApiProblem('validation', { errors: { from: FIELD_MESSAGES.auditPeriodTooLong } });
      }
      audit(request, 'audit-trail-exported', {
        from,
        to,
        rows: records.length,
        companyId: scope === 'all' ? null : scope.companyId,
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(`JejakAudit ${from} sd ${to}.csv`))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'no-store')
        .send(auditCsv(records));
    },
  );
}
