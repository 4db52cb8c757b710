/**
 * Who handles a company's cases, from the legacy's own staff records (docs/product/notifications.md#handlers),
 * under the case list's scope rules: the company's admin (type 2) reads every case of its company, the
 * partner (type 3) and its staff (type 5) every case of the partner's companies, an analyst (type 4)
 * the cases of its own case line. Read with the gateway's service account and kept a few minutes per
 * process: a staff change reaches notices within that time.
 */
import { LRUCache } from 'lru-cache';
import { companies, analysts as companyAnalysts, partnerStaff, partners } from '../legacy/masters.ts';
import type { LegacyCaller } from '../legacy/plugin.ts';

export type Handler = {
  userId: number;
  userType: 2 | 3 | 4 | 5;
  /** The analyst's case line (types 4 only); null for the others, who see every line. */
  lineId: number | null;
  email: string | null;
};

export type CompanyHandlers = { companyId: number; companyName: string; handlers: Handler[] };

/** Staff lists are read whole, a page at a time, up to this many rows (a group has dozens). */
const STAFF_PAGE = 500;
const STAFF_MAX = 5_000;

async function allRows<T>(read: (page: number) => Promise<{ rows: T[]; filtered: number }>): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; rows.length < STAFF_MAX; page++) {
    const result = await read(page);
    rows.push(...result.rows);
    if (result.rows.length < STAFF_PAGE || rows.length >= result.filtered) break;
  }
  return rows;
}

const emailOf = (value: string | null | undefined) => {
  const email = value?.trim();
  return email && email.length <= 254 && !/[\r\n]/.test(email) ? email : null;
};

/** The handlers of one company as the legacy lists them now (null: the company is gone). */
export async function readCompanyHandlers(
  legacy: LegacyCaller,
  companyId: number,
): Promise<CompanyHandlers | null> {
  const company = await companies.detail(legacy, null, companyId);
  if (!company) return null;
  const handlers: Handler[] = [];
  const add = (
    ref: { wbsUserId: number | null; wbsUserEmail: string | null } | null,
    userType: Handler['userType'],
    lineId: number | null,
  ) => {
    if (ref?.wbsUserId)
      handlers.push({ userId: ref.wbsUserId, userType, lineId, email: emailOf(ref.wbsUserEmail) });
  };
  add(company.companyWbsUser, 2, null);
  const paging = (page: number) => ({ page, pageSize: STAFF_PAGE, search: undefined });
  const analysts = await allRows((page) => companyAnalysts.list(legacy, { companyId }, paging(page)));
  for (const staff of analysts) {
    // The legacy's staff table answers staff of other companies too if asked loosely: keep ours.
    if (staff.companyStaffCompanyId !== null && staff.companyStaffCompanyId !== companyId) continue;
    add(staff.companyStaffWbsUser, 4, staff.companyStaffCaseLineId);
  }
  const partnerId = company.companyPartnerId;
  if (partnerId) {
    const partner = await partners.detail(legacy, null, partnerId);
    add(partner?.partnerWbsUser ?? null, 3, null);
    const staff = await allRows((page) => partnerStaff.list(legacy, { partnerId }, paging(page)));
    for (const member of staff) {
      if (member.partnerStaffPartnerId !== null && member.partnerStaffPartnerId !== partnerId) continue;
      add(member.partnerStaffWbsUser, 5, null);
    }
  }
  // One user listed twice (an account in two roles) is told once.
  const unique = new Map(handlers.map((h) => [h.userId, h]));
  return { companyId, companyName: company.companyName, handlers: [...unique.values()] };
}

/** Whether a handler may see a case on `lineId` (an analyst only its own line's cases). */
export function handlesLine(handler: Handler, lineId: number | null): boolean {
  return handler.userType !== 4 || (lineId !== null && handler.lineId === lineId);
}

export type HandlerDirectory = {
  of(legacy: LegacyCaller, companyId: number): Promise<CompanyHandlers | null>;
  forget(companyId: number): void;
};

export function handlerDirectory(ttlMs = 5 * 60_000): HandlerDirectory {
  const cache = new LRUCache<number, { value: CompanyHandlers | null }>({ max: 1_000, ttl: ttlMs });
  return {
    async of(legacy, companyId) {
      const hit = cache.get(companyId);
      if (hit) return hit.value;
      const value = await readCompanyHandlers(legacy, companyId);
      cache.set(companyId, { value });
      return value;
    },
    forget: (companyId) => void cache.delete(companyId),
  };
}
