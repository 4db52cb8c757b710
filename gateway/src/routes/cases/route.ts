/**
 * Cases of the signed-in users: list, detail, attachment downloads and the Excel export. Every
 * route reads the caller's scope from the session (policies/case-scope.ts, ./scope.ts); the filing
 * (POST /cases) and activity-log routes live in ../case-create and ../case-logs.
 */
import type { FastifyInstance } from 'fastify';
import { caseDetailRoutes } from './detail.ts';
import { caseDownloadRoutes } from './downloads.ts';
import { caseExportRoutes } from './export.ts';
import { caseListRoutes } from './list.ts';

export default async function caseRoutes(app: FastifyInstance) {
  const tags = ['cases'];
  caseListRoutes(app, tags);
  caseExportRoutes(app, tags);
  caseDetailRoutes(app, tags);
  caseDownloadRoutes(app, tags);
}
