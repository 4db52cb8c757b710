/**
 * Who is asking, as the policies and domain functions see it: the request's legacy caller, the
 * signed-in user (or none), the data scope derived once from the session (never from the request), and
 * how a request outside that scope is refused (404 + an audit line). Built once per request by the
 * policy plugin (`request.caller`); nothing else of the HTTP request comes with it.
 */

import type { User } from '@wbs/shared/api/session';
import { USER_TYPES } from '@wbs/shared/constants';
import type { Scope } from '@wbs/shared/permissions';
import type { FastifyBaseLogger } from 'fastify';
import type { LRUCache } from 'lru-cache';
import type { ApiProblem } from '../errors.ts';
import type { LegacyCaller } from '../legacy/plugin.ts';

export type CompanyOption = { companyId: number; companyName: string };

export type Caller = {
  readonly legacy: LegacyCaller;
  readonly user: User | null;
  readonly scope: Scope;
  readonly log: FastifyBaseLogger;
  /** 404 for something outside the caller's scope, with an audit line naming what was asked for. */
  denied(resource: string, id: number | string | null): ApiProblem;
  /**
   * A partner's companies, reused briefly by every request of the app (policies/scope.ts); a miss is
   * fetched with the asking request's legacy caller (its `context`), concurrent misses share it.
   */
  readonly partnerCompanies: LRUCache<number, CompanyOption[], LegacyCaller>;
};

/** The data scope of a signed-in user (or of nobody). */
export function scopeOfUser(user: User | null): Scope {
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
