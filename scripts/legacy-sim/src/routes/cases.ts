/** WBSCase: create, tables, detail, tracking, logs, attachments, downloads. */
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../context.ts';
import { NOT_FOUND, notFound, ok, warn } from '../envelope.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
import { caseDetail, caseRow, displayName } from '../present.ts';
import { MAX_CASE_FILES } from '../seed/constants.ts';
import { requestBag, table, tableParams } from '../tables.ts';
import type { Case, StoredFile } from '../types.ts';
import { caseFieldErrors, fileErrors, parseInvolved, readPayload, storeFile } from './case-input.ts';
import { caseFilter, caseTableSpec, type Scope, scopedCases } from './case-query.ts';
import { type Bag, body, num, param, pick, str } from './util.ts';

type CreateKind = 'partner' | 'company' | 'whistleblower' | 'json';

const TRACK_FAILED = 'Nomor pengaduan atau kata sandi salah';

function newCaseNumber(ctx: Ctx): string {
  for (;;) {
    const number = `WBS-${String(randomInt(10_000_000, 100_000_000))}`;
    if (!ctx.store.casesByNumber.has(number)) return number;
  }
}

async function createCase(ctx: Ctx, request: FastifyRequest, kind: CreateKind) {
  const { store } = ctx;
  const read = await readPayload(request);
  if (!read.ok) return warn(...read.messages);
  const { fields: b, files } = read.payload;
  const me = request.wbsUser;

  const errors: string[] = [];
  const companyId =
    num(b, 'caseCompanyId') ?? (kind === 'whistleblower' ? (me?.whistleblowerCompanyId ?? 1) : null);
  if (!store.companies.get(companyId)) errors.push('Perusahaan wajib diisi');
  const categoryId = num(b, 'caseCaseCategoryId');
  if (!categoryId || !store.caseCategories.get(categoryId)) errors.push('Kategori pengaduan wajib diisi');
  const checked = caseFieldErrors(ctx, b);
  errors.push(...checked.errors);

  const mainFile = files.find((f) => f.field.toLowerCase() === 'casefile');
  const attachments = files.filter((f) => f !== mainFile);
  if (!mainFile && kind !== 'json') errors.push('Bukti Pendukung wajib diisi');
  if (files.length > MAX_CASE_FILES) errors.push(`Lampiran tidak boleh melebihi ${MAX_CASE_FILES}`);
  errors.push(...fileErrors(files));

  let passwordHash: string | null = null;
  const guest = kind === 'whistleblower' && !me;
  const password = str(b, 'casePassword');
  if (guest || password) {
    if (!password) errors.push('Kata sandi wajib diisi');
    else if (password.length < 8) errors.push('Kata sandi minimal 8 karakter.');
    else if (password !== str(b, 'caseConfirmPassword')) errors.push('Konfirmasi kata sandi tidak sama');
  }
  const involved = parseInvolved(pick(b, 'allegedlyinvolveds'));
  errors.push(...involved.errors);
  if (errors.length) return warn(...[...new Set(errors)]);
  if (password) passwordHash = await hashPassword(password);

  const stored: StoredFile[] = [];
  for (const f of mainFile ? [mainFile, ...attachments] : attachments) stored.push(await storeFile(ctx, f));

  const channelId = num(b, 'caseChannelId');
  const c: Case = {
    caseId: store.nextId('case'),
    caseNumber: newCaseNumber(ctx),
    caseTitle: str(b, 'caseTitle') || String(checked.fields.caseWhat).slice(0, 100),
    created: Date.now(),
    companyId: companyId!,
    categoryId: categoryId!,
    lineId: null,
    channelId: channelId && channelId >= 1 && channelId <= 4 ? channelId : 1,
    statusId: 1,
    whistleblowerId: kind === 'whistleblower' && me?.whistleblowerId ? me.whistleblowerId : null,
    passwordHash,
    createdByUserId: me?.wbsUserId ?? null,
    fields: checked.fields,
    attachments: stored.map((f) => ({ ...f, attachmentId: store.nextId('attachment') })),
    logs: [],
    allegedlyInvolveds: involved.list.map((a) => ({
      ...a,
      allegedlyInvolvedId: store.nextId('allegedlyInvolved'),
    })),
  };
  store.addCase(c);
  await store.save();
  return ok({ caseId: c.caseId, caseNumber: c.caseNumber }, 'Pengaduan berhasil dibuat', c.caseNumber);
}

async function sendFile(ctx: Ctx, reply: FastifyReply, file: StoredFile | null | undefined) {
  const bytes = file ? await ctx.store.files.get(file.key) : null;
  if (!file || !bytes) return notFound(reply);
  const ascii = file.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .header('content-type', file.contentType)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    )
    .send(bytes);
}

export function caseRoutes(app: FastifyInstance, ctx: Ctx): void {
  const { store } = ctx;
  const spec = caseTableSpec(ctx);

  // Create ------------------------------------------------------------------------------------------
  app.post('/api/WBSCase/Partner', async (request) => createCase(ctx, request, 'partner'));
  app.post('/api/WBSCase/Company', async (request) => createCase(ctx, request, 'company'));
  app.post('/api/WBSCase/Whistleblower', { config: { public: true } }, async (request) =>
    createCase(ctx, request, 'whistleblower'),
  );
  /** Not shown in the spec: JSON (or multipart) with the same fields; no main file required. */
  app.post('/api/WBSCase', async (request) => createCase(ctx, request, 'json'));

  /** Not shown in the spec: JSON {caseId, caseCompanyId, caseTitle?, caseCaseCategoryId?, caseChannelId?, caseEvidenceLink?}. */
  app.put('/api/WBSCase', async (request) => {
    const b = body(request);
    const c = store.cases.get(num(b, 'caseId'));
    const companyId = num(b, 'caseCompanyId');
    if (!c || (companyId && c.companyId !== companyId)) return warn(NOT_FOUND);
    const categoryId = num(b, 'caseCaseCategoryId');
    if (categoryId !== null) {
      if (store.caseCategories.get(categoryId)?.companyId !== c.companyId)
        return warn('Kategori pengaduan tidak valid');
      c.categoryId = categoryId;
    }
    const channelId = num(b, 'caseChannelId');
    if (channelId !== null) {
      if (channelId < 1 || channelId > 4) return warn('Saluran pengaduan tidak valid');
      c.channelId = channelId;
    }
    if (str(b, 'caseTitle')) c.caseTitle = str(b, 'caseTitle').slice(0, 255);
    if (pick(b, 'caseEvidenceLink') !== undefined)
      c.fields.caseEvidenceLink = str(b, 'caseEvidenceLink').slice(0, 500);
    await store.save();
    return ok(caseDetail(ctx, c), 'Pengaduan berhasil diperbarui');
  });

  // Tracking ---------------------------------------------------------------------------------------
  const tracked = async (b: Bag) => {
    const c = store.casesByNumber.get(str(b, 'caseNumber').toUpperCase());
    const password = str(b, 'password') || str(b, 'casePassword');
    // Same reply for an unknown number and a wrong password; hash work is done either way.
    const ok = await verifyPassword(password, c?.passwordHash ?? DUMMY_HASH);
    return c?.passwordHash && ok ? c : null;
  };
  app.post('/api/WBSCase/Whistleblower/byNumber', { config: { public: true } }, async (request) => {
    const b = body(request);
    if (!str(b, 'caseNumber')) return warn('Nomor Pengaduan wajib diisi');
    const c = await tracked(b);
    return c ? ok(caseDetail(ctx, c)) : warn(TRACK_FAILED);
  });
  /**
   * Not shown in the spec: JSON {caseNumber, password, caseWhistleblowerEmail?, caseWhistleblowerContactNum?,
   * caseWhistleblowerCommunicationType?, caseWhistleblowerCommunicationTime?, caseEvidenceLink?}:
   * the reporter updates contact details of a tracked case.
   */
  app.put('/api/WBSCase/Whistleblower', { config: { public: true } }, async (request) => {
    const b = body(request);
    const c = await tracked(b);
    if (!c) return warn(TRACK_FAILED);
    for (const key of [
      'caseWhistleblowerEmail',
      'caseWhistleblowerContactNum',
      'caseWhistleblowerCommunicationTime',
      'caseEvidenceLink',
    ]) {
      if (pick(b, key) !== undefined)
        c.fields[key] = str(b, key).slice(0, key === 'caseEvidenceLink' ? 500 : 100);
    }
    const comm = pick(b, 'caseWhistleblowerCommunicationType');
    if (comm !== undefined)
      c.fields.caseWhistleblowerCommunicationType = Array.isArray(comm) ? comm.join(',') : String(comm);
    await store.save();
    return ok({ caseId: c.caseId, caseNumber: c.caseNumber }, 'Pengaduan berhasil diperbarui');
  });

  // Tables -----------------------------------------------------------------------------------------
  const list = (request: FastifyRequest, scope: Scope) => {
    const bag = requestBag(request);
    const rows = scopedCases(ctx, scope);
    const keep = caseFilter(ctx, bag);
    return table(rows.filter(keep), tableParams(bag), spec, (c) => caseRow(ctx, c), rows.length);
  };
  app.post('/api/WBSCase/partner/:partnerId/:companyId', async (request) =>
    list(request, {
      kind: 'partner',
      partnerId: param(request, 'partnerId'),
      companyId: param(request, 'companyId'),
    }),
  );
  app.post('/api/WBSCase/company/admin/:companyId', async (request) =>
    list(request, { kind: 'company', companyId: param(request, 'companyId') }),
  );
  app.post('/api/WBSCase/company/staff/:companyStaffId', async (request) =>
    list(request, { kind: 'staff', companyStaffId: param(request, 'companyStaffId') }),
  );
  app.post('/api/WBSCase/whistleblower/:whistleblowerId/:companyId', async (request) =>
    list(request, {
      kind: 'whistleblower',
      whistleblowerId: param(request, 'whistleblowerId'),
      companyId: param(request, 'companyId'),
    }),
  );

  // Detail -----------------------------------------------------------------------------------------
  app.get('/api/WBSCase/partner/:caseId', async (request) => {
    const c = store.cases.get(param(request, 'caseId'));
    return c ? ok(caseDetail(ctx, c)) : warn(NOT_FOUND);
  });
  app.get('/api/WBSCase/company/:companyId/:caseId', async (request) => {
    const c = store.cases.get(param(request, 'caseId'));
    return c && c.companyId === param(request, 'companyId') ? ok(caseDetail(ctx, c)) : warn(NOT_FOUND);
  });

  // Activity log ----------------------------------------------------------------------------------
  app.post('/api/WBSCase/CaseLog', async (request) => {
    const read = await readPayload(request);
    if (!read.ok) return warn(...read.messages);
    const { fields: b, files } = read.payload;
    const c = store.cases.get(num(b, 'caseId'));
    const companyId = num(b, 'caseCompanyId');
    if (!c || (companyId && c.companyId !== companyId)) return warn(NOT_FOUND);
    const errors: string[] = [];
    const rawStatus = pick(b, 'caseCaseStatusId');
    const statusId = num(b, 'caseCaseStatusId');
    if (rawStatus === undefined || rawStatus === '') errors.push('Status pengaduan wajib diisi');
    else if (statusId === null || !store.caseStatuses.get(statusId))
      errors.push('Status pengaduan Tidak Valid');
    const lineId = num(b, 'caseCaseLineId');
    if (lineId !== null && !store.caseLines.get(lineId)) errors.push('Jalur Otorisasi Tidak Valid');
    else if (lineId === null && c.lineId === null && (c.statusId === 1 || c.statusId === 11))
      errors.push('Jalur Otorisasi wajib diisi');
    const message = str(b, 'messageLog');
    if (!message) errors.push('Catatan Aktivitas wajib diisi');
    if (files.length > 1) errors.push('Lampiran tidak boleh melebihi 1');
    errors.push(...fileErrors(files));
    if (errors.length) return warn(...errors);
    const file = files[0] ? await storeFile(ctx, files[0]) : null;
    const me = request.wbsUser!;
    c.logs.push({
      caseLogId: store.nextId('caseLog'),
      caseStatusId: statusId!,
      message,
      file,
      created: Date.now(),
      createdBy: displayName(ctx, me),
      createdByUserId: me.wbsUserId,
    });
    c.statusId = statusId!;
    if (lineId !== null) c.lineId = lineId;
    await store.save();
    return ok(caseDetail(ctx, c), 'Catatan aktivitas berhasil disimpan');
  });

  // Attachments (path not shown in the spec) -------------------------------------------------------
  app.post('/api/WBSCase/Attachment', async (request) => {
    const read = await readPayload(request);
    if (!read.ok) return warn(...read.messages);
    const { fields: b, files } = read.payload;
    const c = store.cases.get(num(b, 'CaseId'));
    const companyId = num(b, 'CaseCompanyId');
    if (!c || (companyId && c.companyId !== companyId)) return warn(NOT_FOUND);
    if (!files.length) return warn('Lampiran wajib diisi');
    if (c.attachments.length >= MAX_CASE_FILES) return warn('Lampiran sudah mencapai batas maksimal');
    if (c.attachments.length + files.length > MAX_CASE_FILES)
      return warn(`Lampiran tidak boleh melebihi ${MAX_CASE_FILES}`);
    const errors = fileErrors(
      files,
      c.attachments.map((a) => a.name),
    );
    if (errors.length) return warn(...errors);
    for (const f of files)
      c.attachments.push({ ...(await storeFile(ctx, f)), attachmentId: store.nextId('attachment') });
    await store.save();
    return ok(
      c.attachments.map((a) => ({ attachmentId: a.attachmentId, attachmentName: a.name })),
      'Lampiran berhasil ditambahkan',
    );
  });

  // Downloads --------------------------------------------------------------------------------------
  app.get('/api/WBSCase/DownloadAttachement/:companyId/:attachmentId', async (request, reply) => {
    const companyId = param(request, 'companyId');
    const attachmentId = param(request, 'attachmentId');
    let file: StoredFile | undefined;
    for (const c of store.cases.rows.values()) {
      if (c.companyId !== companyId) continue;
      file = c.attachments.find((a) => a.attachmentId === attachmentId);
      if (file) break;
    }
    return sendFile(ctx, reply, file);
  });
  app.get('/api/WBSCase/DownloadCaseLogAttachement/:companyId/:caseLogId', async (request, reply) => {
    const companyId = param(request, 'companyId');
    const caseLogId = param(request, 'caseLogId');
    let file: StoredFile | null | undefined;
    for (const c of store.cases.rows.values()) {
      if (c.companyId !== companyId) continue;
      const log = c.logs.find((l) => l.caseLogId === caseLogId);
      if (log) {
        file = log.file;
        break;
      }
    }
    return sendFile(ctx, reply, file);
  });
}

/** Verified against when the case is unknown, so both failures cost the same. */
const DUMMY_HASH = await hashPassword('legacy-sim-dummy', Buffer.alloc(16, 7));
