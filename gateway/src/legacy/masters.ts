/**
 * Master data at the legacy: partners and companies (PartnerMaster, CompanyMaster), partner staff and
 * analysts (PartnerStaffMaster, CompanyStaffMaster), and the company and partner drop-downs. Each
 * resource has the same five calls; staff records are read and written within their OWNER (the
 * partner or company) only, and a record of another owner reads as missing.
 */

import type { CompanyRequest } from '@wbs/shared/api/companies';
import type { PartnerRequest } from '@wbs/shared/api/partners';
import type { AnalystRequest, PartnerStaffRequest } from '@wbs/shared/api/staff';
import * as v from 'valibot';
import { seg, type TableResult } from './client.ts';
import type { LegacyCaller } from './plugin.ts';
import { type Created, createdId, createdRecord, type Done, orMissing } from './records.ts';
import {
  companyOptionSchema,
  companySchema,
  companyStaffSchema,
  ignored,
  type LegacyCompany,
  type LegacyCompanyStaff,
  type LegacyPartner,
  type LegacyPartnerStaff,
  partnerOptionSchema,
  partnerSchema,
  partnerStaffSchema,
} from './schemas.ts';
import { type Paging, tableQuery } from './table.ts';

/** The five calls of one master resource; `owner` is the partner or company a staff record belongs to. */
export type MasterRepository<Row, Input, Owner> = {
  list(legacy: LegacyCaller, owner: Owner, paging: Paging): Promise<TableResult<Row>>;
  /** The record, or null when the legacy has none of that id for this owner. */
  detail(legacy: LegacyCaller, owner: Owner, id: number): Promise<Row | null>;
  create(legacy: LegacyCaller, owner: Owner, input: Input): Promise<Created>;
  update(legacy: LegacyCaller, owner: Owner, id: number, input: Input): Promise<Done>;
  remove(legacy: LegacyCaller, owner: Owner, id: number): Promise<Done>;
};

const partnerFields = (b: PartnerRequest) => ({
  username: b.username,
  email: b.email,
  partnerName: b.name,
  partnerPhone: b.phone,
  partnerAddress: b.address,
  provinceId: b.provinceId,
  cityId: b.cityId,
});

export const partners: MasterRepository<LegacyPartner, PartnerRequest, null> = {
  list: (legacy, _owner, paging) =>
    legacy.table({
      name: 'PartnerMaster.list',
      method: 'GET',
      path: '/PartnerMaster',
      query: tableQuery(paging),
      row: partnerSchema,
    }),
  detail: async (legacy, _owner, id) => {
    const found = await orMissing(
      legacy.call({
        name: 'PartnerMaster.detail',
        method: 'GET',
        path: `/PartnerMaster/${seg(id)}`,
        data: partnerSchema,
      }),
    );
    return found?.data ?? null;
  },
  create: async (legacy, _owner, input) => {
    const { messages, data } = await legacy.call({
      name: 'PartnerMaster.create',
      method: 'POST',
      path: '/PartnerMaster',
      json: partnerFields(input),
      data: createdRecord('partnerId'),
    });
    return { id: createdId(data, 'partnerId'), messages };
  },
  update: async (legacy, _owner, id, input) => {
    const { messages } = await legacy.call({
      name: 'PartnerMaster.update',
      method: 'PUT',
      path: '/PartnerMaster',
      json: { ...partnerFields(input), partnerId: id },
      data: ignored,
    });
    return { messages };
  },
  remove: async (legacy, _owner, id) => {
    const { messages } = await legacy.call({
      name: 'PartnerMaster.delete',
      method: 'DELETE',
      path: '/PartnerMaster',
      json: { partnerId: id },
      data: ignored,
    });
    return { messages };
  },
};

const companyFields = (b: CompanyRequest) => ({
  username: b.username,
  email: b.email,
  companyName: b.name,
  companyPhone: b.phone,
  companyAddress: b.address,
  provinceId: b.provinceId,
  cityId: b.cityId,
  partnerId: b.partnerId,
});

export const companies: MasterRepository<LegacyCompany, CompanyRequest, null> = {
  list: (legacy, _owner, paging) =>
    legacy.table({
      name: 'CompanyMaster.list',
      method: 'GET',
      path: '/CompanyMaster',
      query: tableQuery(paging),
      row: companySchema,
    }),
  detail: async (legacy, _owner, id) => {
    const found = await orMissing(
      legacy.call({
        name: 'CompanyMaster.detail',
        method: 'GET',
        path: `/CompanyMaster/${seg(id)}`,
        data: companySchema,
      }),
    );
    return found?.data ?? null;
  },
  create: async (legacy, _owner, input) => {
    const { messages, data } = await legacy.call({
      name: 'CompanyMaster.create',
      method: 'POST',
      path: '/CompanyMaster',
      json: companyFields(input),
      data: createdRecord('companyId'),
    });
    return { id: createdId(data, 'companyId'), messages };
  },
  update: async (legacy, _owner, id, input) => {
    const { messages } = await legacy.call({
      name: 'CompanyMaster.update',
      method: 'PUT',
      path: '/CompanyMaster',
      json: { ...companyFields(input), companyId: id },
      data: ignored,
    });
    return { messages };
  },
  remove: async (legacy, _owner, id) => {
    const { messages } = await legacy.call({
      name: 'CompanyMaster.delete',
      method: 'DELETE',
      path: '/CompanyMaster',
      json: { companyId: id },
      data: ignored,
    });
    return { messages };
  },
};

export type PartnerOwner = { partnerId: number };

export const partnerStaff: MasterRepository<LegacyPartnerStaff, PartnerStaffRequest, PartnerOwner> = {
  list: (legacy, { partnerId }, paging) =>
    legacy.table({
      name: 'PartnerStaffMaster.list',
      method: 'GET',
      path: `/PartnerStaffMaster/${seg(partnerId)}`,
      query: tableQuery(paging),
      row: partnerStaffSchema,
    }),
  detail: async (legacy, { partnerId }, id) => {
    const found = await orMissing(
      legacy.call({
        name: 'PartnerStaffMaster.detail',
        method: 'POST',
        path: '/PartnerStaffMaster/Detail',
        json: { partnerStaffId: id, partnerId },
        data: partnerStaffSchema,
      }),
    );
    // The legacy answers by id alone: a record of another partner is none of this one's.
    const staff = found?.data;
    return staff && staff.partnerStaffId === id && staff.partnerStaffPartnerId === partnerId ? staff : null;
  },
  create: async (legacy, { partnerId }, { fullName, username, email, roleId }) => {
    const { messages, data } = await legacy.call({
      name: 'PartnerStaffMaster.create',
      method: 'POST',
      path: '/PartnerStaffMaster',
      json: { fullName, username, email, roleId, partnerId },
      data: createdRecord('partnerStaffId'),
    });
    return { id: createdId(data, 'partnerStaffId'), messages };
  },
  update: async (legacy, { partnerId }, id, { fullName, username, email, roleId }) => {
    const { messages } = await legacy.call({
      name: 'PartnerStaffMaster.update',
      method: 'PUT',
      path: '/PartnerStaffMaster',
      json: { partnerStaffId: id, fullName, username, email, roleId, partnerId },
      data: ignored,
    });
    return { messages };
  },
  remove: async (legacy, { partnerId }, id) => {
    const { messages } = await legacy.call({
      name: 'PartnerStaffMaster.delete',
      method: 'DELETE',
      path: '/PartnerStaffMaster',
      json: { partnerStaffId: id, partnerId },
      data: ignored,
    });
    return { messages };
  },
};

export type CompanyOwner = { companyId: number };

export const analysts: MasterRepository<LegacyCompanyStaff, AnalystRequest, CompanyOwner> = {
  list: (legacy, { companyId }, paging) =>
    legacy.table({
      name: 'CompanyStaffMaster.list',
      method: 'POST',
      path: '/CompanyStaffMaster/GetAll',
      query: tableQuery(paging),
      json: { companyId },
      row: companyStaffSchema,
    }),
  detail: async (legacy, { companyId }, id) => {
    const found = await orMissing(
      legacy.call({
        name: 'CompanyStaffMaster.detail',
        method: 'POST',
        path: '/CompanyStaffMaster/detail',
        json: { companyStaffId: id, companyId },
        data: companyStaffSchema,
      }),
    );
    const staff = found?.data;
    return staff && staff.companyStaffId === id && staff.companyStaffCompanyId === companyId ? staff : null;
  },
  create: async (legacy, { companyId }, { fullName, username, email, roleId, caseLineId }) => {
    const { messages, data } = await legacy.call({
      name: 'CompanyStaffMaster.create',
      method: 'POST',
      path: '/CompanyStaffMaster',
      json: { fullName, username, email, roleId, caseLineId, companyId },
      data: createdRecord('companyStaffId'),
    });
    return { id: createdId(data, 'companyStaffId'), messages };
  },
  update: async (legacy, { companyId }, id, { fullName, username, email, roleId, caseLineId }) => {
    const { messages } = await legacy.call({
      name: 'CompanyStaffMaster.update',
      method: 'PUT',
      path: '/CompanyStaffMaster',
      json: { companyStaffId: id, fullName, username, email, roleId, caseLineId, companyId },
      data: ignored,
    });
    return { messages };
  },
  remove: async (legacy, { companyId }, id) => {
    const { messages } = await legacy.call({
      name: 'CompanyStaffMaster.delete',
      method: 'DELETE',
      path: '/CompanyStaffMaster',
      json: { companyStaffId: id, companyId },
      data: ignored,
    });
    return { messages };
  },
};

export async function partnerOptions(legacy: LegacyCaller) {
  const { data } = await legacy.call({
    name: 'PartnerMaster.dropdown',
    method: 'GET',
    path: '/PartnerMaster/Dropdown',
    data: v.array(partnerOptionSchema),
  });
  return data;
}

/** The companies of a partner; partner id 0 lists every company of the group. */
export async function companyOptions(legacy: LegacyCaller, partnerId: number) {
  const { data } = await legacy.call({
    name: partnerId === 0 ? 'CompanyMaster.dropdown' : 'CompanyMaster.dropdownByPartner',
    method: 'GET',
    path: `/CompanyMaster/Dropdown/${seg(partnerId)}`,
    data: v.array(companyOptionSchema),
  });
  return data;
}
