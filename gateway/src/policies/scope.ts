/**
 * Data scope, derived from the session and never from the request (policies/caller.ts): company users
 * see their company, partner users the companies of their partner (the legacy's drop-down, reused
 * briefly per partner), staff are managed only within the caller's own partner or company. A request
 * naming another scope gets 404 (no existence leak) and an audit line.
 */
import { GUEST_COMPANY_ID } from '@wbs/shared/constants';
import { UI_MESSAGES } from '@wbs/shared/messages';
import type { Scope } from '@wbs/shared/permissions';
import { LRUCache } from 'lru-cache';
import { ApiProblem } from '../errors.ts';
import { companyOptions } from '../legacy/masters.ts';
import type { LegacyCaller } from '../legacy/plugin.ts';
import type { Caller, CompanyOption } from './caller.ts';

const PARTNER_CACHE_MS = 30_000;

export type { CompanyOption };

/** The caller's scope (computed once per request when the caller was made). */
export const scopeOf = (caller: Caller): Scope => caller.scope;

/** 404 for something outside the caller's scope, with an audit line naming what was asked for. */
export function outOfScope(caller: Caller, resource: string, id: number | string | null): ApiProblem {
  return caller.denied(resource, id);
}

/**
 * The caller's own partner id (types 3, 5). A caller without one asks for something outside its
 * scope by definition: 404 + audit, like any other scope miss.
 */
export function ownPartnerId(caller: Caller): number {
  if (caller.scope.kind !== 'partner') throw caller.denied('partner', null);
  return caller.scope.partnerId;
}

/** The caller's own company id (types 2, 4, 6); 404 + audit when the session holds none. */
export function ownCompanyId(caller: Caller): number {
  const { scope } = caller;
  if (scope.kind === 'company' || scope.kind === 'whistleblower') return scope.companyId;
  throw caller.denied('company', null);
}

/** The companies of a partner (id and name), from the legacy drop-down, reused for 30 s per partner. */
export async function partnerCompanies(caller: Caller, partnerId: number): Promise<CompanyOption[]> {
  return (await caller.partnerCompanies.fetch(partnerId, { context: caller.legacy })) ?? [];
}

/** The app's partner-companies cache (one per app: policies/plugin.ts makes it). */
export function partnerCompanyCache(): Caller['partnerCompanies'] {
  return new LRUCache<number, CompanyOption[], LegacyCaller>({
    max: 1_000,
    ttl: PARTNER_CACHE_MS,
    fetchMethod: (partnerId, _stale, { context }) => companyOptions(context, partnerId),
  });
}

/** Company ids of a partner (see partnerCompanies). */
export async function partnerCompanyIds(caller: Caller, partnerId: number): Promise<Set<number>> {
  return new Set((await partnerCompanies(caller, partnerId)).map((c) => c.companyId));
}

/** Throws 404 (+ audit) unless the caller may see `companyId`. */
export async function assertCompanyInScope(caller: Caller, companyId: number): Promise<void> {
  const { scope } = caller;
  if (scope.kind === 'all') return;
  if ((scope.kind === 'company' || scope.kind === 'whistleblower') && scope.companyId === companyId) return;
  if (scope.kind === 'partner' && (await partnerCompanyIds(caller, scope.partnerId)).has(companyId)) return;
  throw caller.denied('company', companyId);
}

/**
 * The one company a case list, export or dashboard call acts on: partner users (types 3, 5) must
 * name one of their partner's companies (400 when missing, 404 + audit when not theirs); the
 * administrator (type 1, scope `all`) must name one of the group's companies (400 when missing);
 * company users (types 2, 4) and the signed-in whistleblower get their own, and naming another is a 404.
 */
export async function companyInScope(caller: Caller, requested: number | undefined): Promise<number> {
  const { scope } = caller;
  if (scope.kind === 'partner' || scope.kind === 'all') {
    if (requested === undefined) {
      throw new ApiProblem('validation', { errors: { companyId: UI_MESSAGES.choosePartnerCompany } });
    }
    await assertCompanyInScope(caller, requested);
    return requested;
  }
  if (scope.kind === 'company' || scope.kind === 'whistleblower') {
    if (requested !== undefined && requested !== scope.companyId) throw caller.denied('company', requested);
    return scope.companyId;
  }
  throw caller.denied('company', requested ?? null);
}

/**
 * The company whose reference data (categories, groups) a caller reads: guests always the guest
 * company, company users their own, partner users one of theirs (required), the administrator any.
 */
export async function companyForReference(caller: Caller, requested: number | undefined): Promise<number> {
  const { scope } = caller;
  if (!caller.user) {
    if (requested !== undefined && requested !== GUEST_COMPANY_ID) throw caller.denied('company', requested);
    return GUEST_COMPANY_ID;
  }
  if (scope.kind === 'company' || scope.kind === 'whistleblower') {
    if (requested !== undefined && requested !== scope.companyId) throw caller.denied('company', requested);
    return scope.companyId;
  }
  if (requested === undefined) {
    throw new ApiProblem('validation', { errors: { companyId: UI_MESSAGES.choosePartnerCompany } });
  }
  await assertCompanyInScope(caller, requested);
  return requested;
}
