/** Partner staff, managed by a partner user (type 3) within its own partner only. */
import { partnerStaffListReply, partnerStaffRequest, partnerStaffSchemaOut } from '@wbs/shared/api/staff';
import type { FastifyInstance } from 'fastify';
import { partnerStaff } from '../../legacy/masters.ts';
import { ownPartnerId } from '../../policies/scope.ts';
import { presentPartnerStaff } from '../../presenters/master.ts';
import { masterRoutes } from '../master-data.ts';

export default async function partnerStaffRoutes(app: FastifyInstance) {
  masterRoutes(app, {
    path: '/partner-staff',
    tag: 'partner-staff',
    policy: 'partner-staff:manage',
    resource: 'partner-staff',
    summaries: {
      list: 'Daftar staff partner',
      detail: 'Detail staff partner',
      create: 'Tambah staff partner',
      update: 'Ubah staff partner',
      remove: 'Hapus staff partner',
    },
    schemas: { request: partnerStaffRequest, item: partnerStaffSchemaOut, list: partnerStaffListReply },
    repository: partnerStaff,
    owner: (request) => ({ partnerId: ownPartnerId(request.caller) }),
    present: presentPartnerStaff,
    userIdOf: (row) => row.partnerStaffWbsUser?.wbsUserId,
    secondFactorResetSummary: 'Reset faktor kedua staff partner',
    staff: {
      idOf: (row) => row.partnerStaffId,
      changesRights: (row, input) => input.roleId !== row.partnerStaffWbsUser?.wbsUserRole,
      roleOf: (input) => input.roleId,
      passwordResetSummary: 'Reset kata sandi staff partner',
    },
  });
}
