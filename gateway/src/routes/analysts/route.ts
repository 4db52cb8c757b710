/** Analysts (company staff), managed by a company admin (type 2) within its own company only. */
import { analystListReply, analystRequest, analystSchemaOut } from '@wbs/shared/api/staff';
import type { FastifyInstance } from 'fastify';
import { analysts } from '../../legacy/masters.ts';
import { ownCompanyId } from '../../policies/scope.ts';
import { presentAnalyst } from '../../presenters/master.ts';
import { masterRoutes } from '../master-data.ts';

export default async function analystRoutes(app: FastifyInstance) {
  masterRoutes(app, {
    path: '/analysts',
    tag: 'analysts',
    policy: 'analysts:manage',
    resource: 'analyst',
    summaries: {
      list: 'Daftar analis',
      detail: 'Detail analis',
      create: 'Tambah analis',
      update: 'Ubah analis',
      remove: 'Hapus analis',
    },
    schemas: { request: analystRequest, item: analystSchemaOut, list: analystListReply },
    repository: analysts,
    owner: (request) => ({ companyId: ownCompanyId(request.caller) }),
    present: presentAnalyst,
    userIdOf: (row) => row.companyStaffWbsUser?.wbsUserId,
    secondFactorResetSummary: 'Reset faktor kedua analis',
    staff: {
      idOf: (row) => row.companyStaffId,
      changesRights: (row, input) =>
        input.roleId !== row.companyStaffWbsUser?.wbsUserRole ||
        input.caseLineId !== row.companyStaffCaseLineId,
      roleOf: (input) => input.roleId,
      passwordResetSummary: 'Reset kata sandi analis',
    },
  });
}
