/** PartnerDashboard and CompanyDashboard summaries, aggregated from the stored cases. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from '../context.ts';
import { parseRange } from '../dates.ts';
import { NOT_FOUND, ok, warn } from '../envelope.ts';
import type { Case } from '../types.ts';
import { type Bag, num } from './util.ts';

export function dashboardRoutes(app: FastifyInstance, ctx: Ctx): void {
  const { store } = ctx;
  const q = (request: FastifyRequest) => (request.query ?? {}) as Bag;

  /** Cases of a company (companyId > 0) or of all companies of a partner, within DatePeriodRange. */
  const casesFor = (bag: Bag, withRange = true): Case[] => {
    const companyId = num(bag, 'companyId');
    const partnerId = num(bag, 'partnerId');
    const range = withRange ? parseRange(bag.DatePeriodRange ?? bag.datePeriodRange) : null;
    const companies = new Set(
      companyId
        ? [companyId]
        : store.companies.filter((c) => c.companyPartnerId === partnerId).map((c) => c.companyId),
    );
    return store.cases.filter(
      (c) => companies.has(c.companyId) && (!range || (c.created >= range[0] && c.created < range[1])),
    );
  };

  const byStatus = (cases: Case[]) =>
    store.caseStatuses
      .all()
      .sort((a, b) => a.caseStatusOrder - b.caseStatusOrder)
      .map((s) => ({
        caseStatusId: s.caseStatusId,
        caseStatusName: s.caseStatusName,
        totalCase: cases.filter((c) => c.statusId === s.caseStatusId).length,
      }));

  const byCategory = (bag: Bag, cases: Case[]) => {
    const companyId = num(bag, 'companyId');
    const companies = new Set(cases.map((c) => c.companyId));
    if (companyId) companies.add(companyId);
    return store.caseCategories
      .filter((cat) => companies.has(cat.companyId))
      .map((cat) => ({
        caseCategoryId: cat.caseCategoryId,
        caseCategoryName: cat.caseCategoryName,
        totalCase: cases.filter((c) => c.categoryId === cat.caseCategoryId).length,
      }));
  };

  /** Unfinished cases (not in a final status) per category, split by status. No date range. */
  const openCases = (bag: Bag) => {
    const cases = casesFor(bag, false).filter((c) => !store.caseStatuses.get(c.statusId)?.final);
    const open = store.caseStatuses
      .filter((s) => !s.final)
      .sort((a, b) => a.caseStatusOrder - b.caseStatusOrder);
    const categories = [...new Set(cases.map((c) => c.categoryId))]
      .map((id) => store.caseCategories.get(id))
      .filter((cat) => cat !== undefined)
      .sort((a, b) => a.caseCategoryId - b.caseCategoryId);
    return categories.map((cat) => ({
      caseCategoryId: cat.caseCategoryId,
      caseCategoryName: cat.caseCategoryName,
      values: open.map((s) => ({
        caseStatusId: s.caseStatusId,
        caseStatusName: s.caseStatusName,
        totalCases: cases.filter((c) => c.categoryId === cat.caseCategoryId && c.statusId === s.caseStatusId)
          .length,
      })),
    }));
  };

  app.get('/api/PartnerDashboard/Summary', async (request) => {
    const bag = q(request);
    const partnerId = num(bag, 'partnerId');
    const range = parseRange(bag.DatePeriodRange ?? bag.datePeriodRange);
    return ok(
      store.companies
        .filter((c) => c.companyPartnerId === partnerId)
        .map((company) => ({
          companyId: company.companyId,
          companyName: company.companyName,
          totalCase: store.cases.filter(
            (c) =>
              c.companyId === company.companyId &&
              (!range || (c.created >= range[0] && c.created < range[1])),
          ).length,
        })),
    );
  });
  app.get('/api/PartnerDashboard/SummaryStatus', async (request) => ok(byStatus(casesFor(q(request)))));
  app.get('/api/PartnerDashboard/SummaryCategory', async (request) =>
    ok(byCategory(q(request), casesFor(q(request)))),
  );
  app.get('/api/PartnerDashboard/SummaryOpenCases', async (request) => ok(openCases(q(request))));

  app.get('/api/CompanyDashboard/Summary', async (request) => {
    const bag = q(request);
    const company = store.companies.get(num(bag, 'companyId'));
    if (!company) return warn(NOT_FOUND);
    return ok({
      companyId: company.companyId,
      companyName: company.companyName,
      totalCase: casesFor(bag).length,
    });
  });
  app.get('/api/CompanyDashboard/SummaryStatus', async (request) => ok(byStatus(casesFor(q(request)))));
  app.get('/api/CompanyDashboard/SummaryCategory', async (request) =>
    ok(byCategory(q(request), casesFor(q(request)))),
  );
  app.get('/api/CompanyDashboard/SummaryOpenCases', async (request) => ok(openCases(q(request))));
}
