/**
 * Data scope, derived from the session and never from the request: company users see their company,
 * partner users the companies of their partner (legacy GET /CompanyMaster/Dropdown/{partnerId}, cached
 * briefly per partner), staff are managed only within the caller's own partner or company. A request
 * naming another scope gets 404 (no existence leak) and an audit line.
 */
import { GUEST_COMPANY_ID, USER_TYPES } from '@wbs/shared/constants';
import { UI_MESSAGES } from '@wbs/shared/messages';
import type { Scope } from '@wbs/shared/permissions';
import type { FastifyRequest } from 'fastify';
import * as v from 'valibot';
import { ApiProblem } from '../errors.ts';
import { seg } from '../legacy/client.ts';
import { companyOptionSchema } from '../legacy/schemas.ts';
import { audit } from '../logging.ts';

const PARTNER_CACHE_MS = 30_000;
type Cached = { until: number; companies: Promise<CompanyOption[]> };
const partnerCaches = new WeakMap<object, Map<number, Cached>>();

export function scopeOf(request: FastifyRequest): Scope {
  const user = request.session?.user;
  if (!user) return { kind: 'none' };
  switch (user.userTypeId) {
    case USER_TYPES.ADMINISTRATOR:
      return { kind: 'all' };
    case USER_TYPES.PARTNER:
    case USER_TYPES.PARTNER_STAFF:
      return user.partnerId ? { kind: 'partner', partnerId: user.partnerId } : { kind: 'none' };
    case USER_TYPES.COMPANY_ADMIN:
    case USER_TYPES.COMPANY_STAFF:
      return user.companyId
        ? {
            kind: 'company',
            companyId: user.companyId,
            caseLineId: user.caseLineId,
            staffOnly: user.userTypeId === USER_TYPES.COMPANY_STAFF,
          }
        : { kind: 'none' };
    case USER_TYPES.WHISTLEBLOWER:
      return user.whistleblowerId && user.companyId
        ? { kind: 'whistleblower', whistleblowerId: user.whistleblowerId, companyId: user.companyId }
        : { kind: 'none' };
    default:
      return { kind: 'none' };
  }
}

/** 404 for something outside the caller's scope, with an audit line naming what was asked for. */
export function outOfScope(
  request: FastifyRequest,
  resource: string,
  id: number | string | null,
): ApiProblem {
  audit(request, 'scope-denied', { resource, resourceId: id });
  return new ApiProblem('not-found');
}

/**
 * The caller's own partner id (types 3, 5). A caller without one asks for something outside its
 * scope by definition: 404 + audit, like any other scope miss.
 */
export function ownPartnerId(request: FastifyRequest): number {
  const scope = scopeOf(request);
  if (scope.kind !== 'partner') throw outOfScope(request, 'partner', null);
  return scope.partnerId;
}

/** The caller's own company id (types 2, 4, 6); 404 + audit when the session holds none. */
export function ownCompanyId(request: FastifyRequest): number {
  const scope = scopeOf(request);
  if (scope.kind === 'company' || scope.kind === 'whistleblower') return scope.companyId;
  throw outOfScope(request, 'company', null);
}

export type CompanyOption = v.InferOutput<typeof companyOptionSchema>;

/** The companies of a partner (id and name), from the legacy drop-down, cached for 30 s per partner. */
export async function partnerCompanies(request: FastifyRequest, partnerId: number): Promise<CompanyOption[]> {
  let cache = partnerCaches.get(request.server);
  if (!cache) {
    cache = new Map();
    partnerCaches.set(request.server, cache);
  }
  const now = Date.now();
  const hit = cache.get(partnerId);
  if (hit && hit.until > now) return hit.companies;
  const companies = request.legacy
    .call({
      name: 'CompanyMaster.dropdownByPartner',
      method: 'GET',
      path: `/CompanyMaster/Dropdown/${seg(partnerId)}`,
      data: v.array(companyOptionSchema),
    })
    .then(({ data }) => data);
  cache.set(partnerId, { until: now + PARTNER_CACHE_MS, companies });
  companies.catch(() => cache.delete(partnerId));
  return companies;
}

/** Company ids of a partner (see partnerCompanies). */
export async function partnerCompanyIds(request: FastifyRequest, partnerId: number): Promise<Set<number>> {
  return new Set((await partnerCompanies(request, partnerId)).map((c) => c.companyId));
}

/** Throws 404 (+ audit) unless the caller may see `companyId`. */
export async function assertCompanyInScope(request: FastifyRequest, companyId: number): Promise<void> {
  const scope = scopeOf(request);
  if (scope.kind === 'all') return;
  if ((scope.kind === 'company' || scope.kind === 'whistleblower') && scope.companyId === companyId) return;
  if (scope.kind === 'partner' && (await partnerCompanyIds(request, scope.partnerId)).has(companyId)) return;
  throw outOfScope(request, 'company', companyId);
}

/**
 * The one company a case list, export or dashboard call acts on: partner users (types 3, 5) must
 * name one of their partner's companies (400 when missing, 404 + audit when not theirs); the
 * administrator (type 1, scope `all`) must name one of the group's companies (400 when missing);
 * company users (types 2, 4) and the signed-in whistleblower get their own, and naming another is a 404.
 */
export async function companyInScope(
  request: FastifyRequest,
  requested: number | undefined,
): Promise<number> {
  const scope = scopeOf(request);
  if (scope.kind === 'partner' || scope.kind === 'all') {
    if (requested === undefined) {
      throw new ApiProblem('validation', { errors: { companyId: UI_MESSAGES.choosePartnerCompany } });
    }
    await assertCompanyInScope(request, requested);
    return requested;
  }
  if (scope.kind === 'company' || scope.kind === 'whistleblower') {
    if (requested !== undefined && requested !== scope.companyId) {
      throw outOfScope(request, 'company', requested);
    }
    return scope.companyId;
  }
  throw outOfScope(request, 'company', requested ?? null);
}

/**
 * The company whose reference data (categories, groups) a caller reads: guests always the guest
 * company, company users their own, partner users one of theirs (required), the administrator any.
 */
export async function companyForReference(
  request: FastifyRequest,
  requested: number | undefined,
): Promise<number> {
  const scope = scopeOf(request);
  if (!request.session) {
    if (requested !== undefined && requested !== GUEST_COMPANY_ID)
      throw outOfScope(request, 'company', requested);
    return GUEST_COMPANY_ID;
  }
  if (scope.kind === 'company' || scope.kind === 'whistleblower') {
    if (requested !== undefined && requested !== scope.companyId)
      throw outOfScope(request, 'company', requested);
    return scope.companyId;
  }
  if (requested === undefined) {
    throw new ApiProblem('validation', { errors: { companyId: UI_MESSAGES.choosePartnerCompany } });
  }
  await assertCompanyInScope(request, requested);
  return requested;
}
