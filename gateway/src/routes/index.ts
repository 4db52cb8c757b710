/** Every route of the gateway; API routes under /api/v1, probes at the root. */
import type { FastifyInstance } from 'fastify';
import analystRoutes from './analysts/route.ts';
import auditTrailRoutes from './audit-trail/route.ts';
import caseCategoryRoutes from './case-categories/route.ts';
import caseCategoryGroupRoutes from './case-category-groups/route.ts';
import caseCreateRoutes from './case-create/route.ts';
import caseEvidenceRoutes from './case-evidence/route.ts';
import caseLineRoutes from './case-lines/route.ts';
import caseLogRoutes from './case-logs/route.ts';
import caseStatusRoutes from './case-statuses/route.ts';
import caseRoutes from './cases/route.ts';
import channelRoutes from './channels/route.ts';
import companyRoutes from './companies/route.ts';
import contactRevealRoutes from './contact-reveal/route.ts';
import dashboardRoutes from './dashboard/route.ts';
import disposalRoutes from './disposals/route.ts';
import handlingDeadlineRoutes from './handling-deadlines/route.ts';
import healthRoutes from './health/route.ts';
import identityAccessRoutes from './identity-access/route.ts';
import mapRoutes from './maps/route.ts';
import messageRoutes from './messages/route.ts';
import noticeRoutes from './notices/route.ts';
import ownSecondFactorRoutes from './own-second-factors/route.ts';
import partnerStaffRoutes from './partner-staff/route.ts';
import partnerRoutes from './partners/route.ts';
import passwordRoutes from './password/route.ts';
import processingRecordRoutes from './processing-records/route.ts';
import profileRoutes from './profile/route.ts';
import receiptRoutes from './receipts/route.ts';
import regionRoutes from './regions/route.ts';
import reporterNoticeRoutes from './reporter-notices/route.ts';
import retentionPeriodRoutes from './retention-periods/route.ts';
import secondFactorRoutes from './second-factor/route.ts';
import sessionRoutes from './session/route.ts';
import statisticsRoutes from './statistics/route.ts';
import trackingRoutes from './tracking/route.ts';
import unitRoutes from './units/route.ts';
import uploadRoutes from './uploads/route.ts';
import userRoleRoutes from './user-roles/route.ts';

const API_ROUTES = [
  sessionRoutes,
  secondFactorRoutes,
  ownSecondFactorRoutes,
  passwordRoutes,
  profileRoutes,
  regionRoutes,
  unitRoutes,
  channelRoutes,
  caseLineRoutes,
  userRoleRoutes,
  caseStatusRoutes,
  caseCategoryRoutes,
  caseCategoryGroupRoutes,
  partnerRoutes,
  companyRoutes,
  partnerStaffRoutes,
  analystRoutes,
  caseRoutes,
  caseCreateRoutes,
  uploadRoutes,
  caseLogRoutes,
  contactRevealRoutes,
  trackingRoutes,
  dashboardRoutes,
  messageRoutes,
  identityAccessRoutes,
  auditTrailRoutes,
  receiptRoutes,
  caseEvidenceRoutes,
  handlingDeadlineRoutes,
  noticeRoutes,
  reporterNoticeRoutes,
  retentionPeriodRoutes,
  disposalRoutes,
  processingRecordRoutes,
  mapRoutes,
  statisticsRoutes,
];

export async function routes(app: FastifyInstance) {
  await app.register(healthRoutes);
  for (const plugin of API_ROUTES) await app.register(plugin, { prefix: '/api/v1' });
}
