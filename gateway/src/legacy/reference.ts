/**
 * Reference lists of the legacy: regions, units, channels, case lines, user roles, case statuses (with
 * which of them are final) and a company's categories and category groups. Most are reused for a short
 * time (./reference-cache.ts): the same for everyone allowed to read them.
 */
import type { CaseStatusRow } from '@wbs/shared/api/reference';
import * as v from 'valibot';
import { seg } from './client.ts';
import type { LegacyCaller } from './plugin.ts';
import { type Created, createdId, createdRecord, type Done } from './records.ts';
import {
  caseCategoryGroupSchema,
  caseCategorySchema,
  caseLineSchema,
  caseStatusSchema,
  channelSchema,
  citySchema,
  districtSchema,
  ignored,
  provinceSchema,
  unitSchema,
  userRoleSchema,
} from './schemas.ts';

export const provinces = (legacy: LegacyCaller) =>
  legacy.reference('provinces', {
    name: 'Province.list',
    method: 'GET',
    path: '/Province',
    data: v.array(provinceSchema),
  });

export const cities = (legacy: LegacyCaller, provinceId: number) =>
  legacy.reference(`cities:${provinceId}`, {
    name: 'City.list',
    method: 'GET',
    path: `/city/${seg(provinceId)}`,
    data: v.array(citySchema),
  });

export const districts = (legacy: LegacyCaller, cityId: number) =>
  legacy.reference(`districts:${cityId}`, {
    name: 'District.list',
    method: 'GET',
    path: `/district/${seg(cityId)}`,
    data: v.array(districtSchema),
  });

export const directorates = (legacy: LegacyCaller) =>
  legacy.reference('unit-directorates', {
    name: 'Unit.directorates',
    method: 'GET',
    path: '/unit/getdirectorate/',
    data: v.array(unitSchema),
  });

export const divisions = (legacy: LegacyCaller, directorateId: number) =>
  legacy.reference(`unit-divisions:${directorateId}`, {
    name: 'Unit.divisions',
    method: 'GET',
    path: `/unit/getdivision/${seg(directorateId)}`,
    data: v.array(unitSchema),
  });

const CHANNELS = {
  name: 'Channel.list',
  method: 'GET',
  path: '/channel/',
  data: v.array(channelSchema),
} as const;

export const channels = (legacy: LegacyCaller) => legacy.reference('channels', CHANNELS);

/** One small uncached read for readiness: how many channels the legacy lists (none: something is off). */
export async function probeChannels(legacy: LegacyCaller): Promise<number> {
  return (await legacy.call({ ...CHANNELS, name: 'Readiness.channels' })).data.length;
}

export const caseLines = (legacy: LegacyCaller) =>
  legacy.reference('case-lines', {
    name: 'CaseLine.list',
    method: 'GET',
    path: '/CaseLine',
    data: v.array(caseLineSchema),
  });

/** The Akses Level choices the legacy offers (never cached: a role check must see the current list). */
export async function userRoles(legacy: LegacyCaller) {
  const { data } = await legacy.call({
    name: 'UserRole.list',
    method: 'GET',
    path: '/UserRole',
    data: v.array(userRoleSchema),
  });
  return data;
}

const statusList = v.array(caseStatusSchema);

/**
 * The status table, sorted by order, each status marked open or final. Final = absent from the
 * legacy's open-status list (GET /CaseStatus/Open), the list its dashboards count unfinished cases
 * by: the gateway holds no status meaning of its own (docs/product/handling.md#case-workflow).
 */
export function caseStatusTable(legacy: LegacyCaller): Promise<readonly CaseStatusRow[]> {
  return legacy.cached('case-statuses', async () => {
    const [all, open] = await Promise.all([
      legacy.call({ name: 'CaseStatus.list', method: 'GET', path: '/CaseStatus', data: statusList }),
      legacy.call({ name: 'CaseStatus.open', method: 'GET', path: '/CaseStatus/Open', data: statusList }),
    ]);
    const openIds = new Set(open.data.map((s) => s.caseStatusId));
    return all.data
      .map((s) => ({
        id: s.caseStatusId,
        name: s.caseStatusName,
        order: s.caseStatusOrder,
        open: openIds.has(s.caseStatusId),
      }))
      .sort((a, b) => a.order - b.order);
  });
}

/** Cache key of a company's category list (forgotten by the gateway's own category writes). */
const categoriesKey = (companyId: number) => `case-categories:${companyId}`;

export const caseCategories = (legacy: LegacyCaller, companyId: number) =>
  legacy.reference(categoriesKey(companyId), {
    name: 'CaseCategory.getAll',
    method: 'POST',
    path: '/CaseCategory/GetAll',
    json: { companyId },
    data: v.array(caseCategorySchema),
  });

export async function caseCategoryGroups(legacy: LegacyCaller, companyId: number) {
  const { data } = await legacy.call({
    name: 'CaseCategoryGroup.getAll',
    method: 'POST',
    path: '/CaseCategoryGroup/GetAll',
    json: { companyId },
    data: v.array(caseCategoryGroupSchema),
  });
  return data;
}

export type CategoryInput = { name: string; groupId: number | null };

export async function createCaseCategory(
  legacy: LegacyCaller,
  companyId: number,
  category: CategoryInput,
): Promise<Created> {
  const { messages, data } = await legacy.call({
    name: 'CaseCategory.create',
    method: 'POST',
    path: '/CaseCategory',
    json: { caseCategoryName: category.name, caseCategoryGroupId: category.groupId ?? 0, companyId },
    data: createdRecord('caseCategoryId'),
  });
  // The company's list changed: its next read asks the legacy.
  legacy.forget(categoriesKey(companyId));
  return { id: createdId(data, 'caseCategoryId'), messages };
}

export async function updateCaseCategory(
  legacy: LegacyCaller,
  companyId: number,
  categoryId: number,
  category: CategoryInput,
): Promise<Done> {
  const { messages } = await legacy.call({
    name: 'CaseCategory.update',
    method: 'PUT',
    path: '/CaseCategory',
    json: {
      caseCategoryId: categoryId,
      caseCategoryName: category.name,
      caseCategoryGroupId: category.groupId ?? 0,
      companyId,
    },
    data: ignored,
  });
  legacy.forget(categoriesKey(companyId));
  return { messages };
}
