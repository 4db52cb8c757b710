/** Case exports as real .xlsx files (exceljs). */
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../context.ts';
import { formatFileStamp, wibWallClock } from '../dates.ts';
import { CHANNELS } from '../seed/constants.ts';
import type { Case } from '../types.ts';
import { caseFilter, type Scope, scopedCases } from './case-query.ts';
import { body, num } from './util.ts';

export const EXPORT_HEADERS = [
  'No',
  'Tanggal',
  'Nomor Laporan',
  'Perusahaan',
  'Kategori',
  'Jalur Otorisasi',
  'Status',
  'Saluran',
  'Nama Pelapor',
  'Kejadian',
];

async function workbook(ctx: Ctx, cases: Case[]): Promise<Buffer> {
  const { store } = ctx;
  const book = new ExcelJS.Workbook();
  book.creator = 'legacy-sim';
  const sheet = book.addWorksheet('Laporan');
  sheet.addRow(EXPORT_HEADERS).font = { bold: true };
  cases.forEach((c, i) => {
    sheet.addRow([
      i + 1,
      wibWallClock(c.created),
      c.caseNumber,
      store.companies.get(c.companyId)?.companyName ?? '',
      store.caseCategories.get(c.categoryId)?.caseCategoryName ?? '',
      store.caseLines.get(c.lineId)?.caseLineName ?? '',
      store.caseStatuses.get(c.statusId)?.caseStatusName ?? '',
      CHANNELS.find((ch) => ch.channelId === c.channelId)?.channelName ?? '',
      c.fields.caseWhistleblowerIsAnonym ? 'Anonim' : String(c.fields.caseWhistleblowerName ?? ''),
      String(c.fields.caseWhat ?? ''),
    ]);
  });
  sheet.columns.forEach((column) => {
    column.width = 22;
  });
  // Tanggal is a real date cell (sortable, filterable), shown as the product shows dates.
  sheet.getColumn(2).numFmt = 'dd/mm/yyyy';
  return Buffer.from(await book.xlsx.writeBuffer());
}

export function exportRoutes(app: FastifyInstance, ctx: Ctx): void {
  const send = async (request: FastifyRequest, reply: FastifyReply, scope: Scope) => {
    const b = body(request);
    const cases = scopedCases(ctx, scope)
      .filter(caseFilter(ctx, b))
      .sort((a, z) => z.created - a.created);
    const bytes = await workbook(ctx, cases);
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="AllCases - ${formatFileStamp(Date.now())}.xlsx"`)
      .send(bytes);
  };
  app.post('/api/WBSCase/Company/Admin/Export', async (request, reply) =>
    send(request, reply, { kind: 'company', companyId: num(body(request), 'caseCompanyId') ?? 0 }),
  );
  app.post('/api/WBSCase/Company/Staff/Export', async (request, reply) =>
    send(request, reply, { kind: 'staff', companyStaffId: num(body(request), 'companyStaffId') ?? 0 }),
  );
  app.post('/api/WBSCase/Partner/Export', async (request, reply) =>
    send(request, reply, {
      kind: 'partner',
      partnerId: num(body(request), 'partnerId') ?? 0,
      companyId: num(body(request), 'caseCompanyId') ?? 0,
    }),
  );
}
