/**
 * POST /cases: the report wizard's submission (multipart). The legacy endpoint and the company come
 * from the SESSION, never from the request (spec §6 "Filing a report"):
 * - guest → POST /WBSCase/Whistleblower, company 1, with the case password;
 * - company user (type 2, type 4 with role 1) → POST /WBSCase/Company, its own company;
 * - partner user (type 3, type 5 with role 1) → POST /WBSCase/Partner, a company of its partner
 *   named in the form (another company → 404).
 * Upload pipeline (gateway/src/uploads): spool + check every file, validate the texts with the
 * wizard's rules, scrub metadata, then stream the complete submission to the legacy, once per
 * `Idempotency-Key`.
 */
import {
  CASE_CREATE_FILES,
  type CaseCreatedReply,
  type CaseCreateInput,
  caseCreatedReply,
  caseCreateMultipartDoc,
  type Filer,
  parseCaseCreateFields,
} from '@wbs/shared/api/case-create';
import { CASE_NUMBER_PATTERN, GUEST_COMPANY_ID, PRIVILEGED_ROLE, USER_TYPES } from '@wbs/shared/constants';
import { addDays, wibToday } from '@wbs/shared/handling-clock';
import { FIELD_MESSAGES } from '@wbs/shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ackDaysOf } from '../../clocks/service.ts';
import { ApiProblem } from '../../errors.ts';
import { caseCreationFields, fileCase } from '../../legacy/cases.ts';
import { caseCategories } from '../../legacy/reference.ts';
import { audit } from '../../logging.ts';
import { floodLimiter } from '../../policies/flood-limits.ts';
import { assertCompanyInScope, ownCompanyId } from '../../policies/scope.ts';
import { issueReceipt } from '../../receipts/issue.ts';
import { contentDigest } from '../../receipts/receipt.ts';
import { routeSchema } from '../../schema.ts';
import { draftOwnerOf, fitsDraft } from '../../uploads/draft-rules.ts';
import { runIdempotent, submissionFingerprint } from '../../uploads/idempotency.ts';
import { scrubFiles } from '../../uploads/scrub.ts';
import { validUpload, withSpooledUpload } from '../../uploads/spool.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';
import { draftMissing, draftUpload, headerDraft, NO_FILE_PARTS } from '../upload-draft.ts';

/** Which kind of filer the session is; a signed-in user who may not file never gets here (policy). */
export function filerOf(request: FastifyRequest): Filer {
  const user = request.session?.user;
  if (!user) return 'guest';
  const privileged = user.role === PRIVILEGED_ROLE;
  if (user.userTypeId === USER_TYPES.COMPANY_ADMIN) return 'company';
  if (user.userTypeId === USER_TYPES.COMPANY_STAFF && privileged) return 'company';
  if (user.userTypeId === USER_TYPES.PARTNER) return 'partner';
  if (user.userTypeId === USER_TYPES.PARTNER_STAFF && privileged) return 'partner';
  throw new ApiProblem('forbidden');
}

/** The company the report goes to: from the session, or a partner's own company named in the form. */
async function targetCompany(request: FastifyRequest, filer: Filer, input: CaseCreateInput): Promise<number> {
  if (filer === 'guest') return GUEST_COMPANY_ID;
  if (filer === 'company') return ownCompanyId(request.caller);
  const companyId = input.companyId ?? 0;
  await assertCompanyInScope(request.caller, companyId);
  return companyId;
}

export default async function caseCreateRoutes(app: FastifyInstance) {
  const flood = await floodLimiter(app, { name: 'case-submissions', ...app.config.caseSubmissions });
  app.post(
    '/cases',
    {
      config: { policy: 'cases:create' },
      schema: routeSchema({
        idempotent: true,
        summary: 'Buat laporan (multipart/form-data)',
        description:
          'Tamu: kata sandi pengaduan wajib, perusahaan 1. Pengguna masuk: `channelId`; partner: `companyId`. ' +
          'File: `evidence` (wajib) dan `attachments` (total maks. 5, masing-masing maks. 10 MB). ' +
          'Header opsional `Idempotency-Key` (8–128 karakter A-Z a-z 0-9 _ -): kiriman ulang dengan kunci dan ' +
          'isi yang sama menghasilkan satu laporan dan jawaban yang sama.',
        tags: ['cases'],
        multipart: { fields: caseCreateMultipartDoc, files: ['evidence', 'attachments'] },
        response: { 201: caseCreatedReply },
      }),
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request);
      const filer = filerOf(request);
      // Counted before the body is read; a retry of an admitted submission (same key) is not.
      await flood.consume(request, reply, key);
      // Files uploaded resumably: the draft named by the header holds them (routes/uploads).
      const draft = await headerDraft(request, 'evidence');
      // A draft of another form or another caller is as unknown as a wrong token.
      if (draft && !fitsDraft(draft, { purpose: 'case', owner: draftOwnerOf(request.session?.user.id) })) {
        throw draftMissing('evidence');
      }
      const drafts = request.server.uploads.drafts;
      const rule = draft ? NO_FILE_PARTS : CASE_CREATE_FILES;
      const result = await withSpooledUpload(request, rule, async (received) => {
        const upload = draft
          ? await draftUpload(request, draft, received, { required: CASE_CREATE_FILES.required })
          : received;
        const input = validUpload(parseCaseCreateFields(upload.fields, filer), upload);
        const companyId = await targetCompany(request, filer, input);
        const categories = await caseCategories(request.legacy, companyId);
        if (!categories.some((c) => c.caseCategoryId === input.categoryId)) {
          throw new ApiProblem('validation', { errors: { categoryId: FIELD_MESSAGES.categoryRequired } });
        }
        const fields = caseCreationFields(input, filer, companyId);
        // Read before filing: once the legacy holds the report, nothing may fail its reply.
        const ackDays = await ackDaysOf(request.clocks, companyId);
        const fingerprint = submissionFingerprint(request.server.config.sessionSecret, {
          filer,
          fields,
          files: upload.files.map((f) => [f.field, f.name, f.sha256]),
        });
        const namespace = request.session ? `user:${request.session.user.id}` : 'guest';
        return runIdempotent<CaseCreatedReply>(
          request.idempotency,
          { scope: 'case', namespace, key, fingerprint },
          async () => {
            // A filed draft's bytes are gone: only a retry the idempotency store still answers may use it.
            if (draft?.filedAt != null) throw draftMissing('evidence');
            // A draft's files were scrubbed when each upload completed.
            const scrubbed = draft ? upload.files : await scrubFiles(request.scrubbing, upload.files);
            const { caseNumber, messages } = await fileCase(request.legacy, filer, fields, scrubbed);
            if (draft) await drafts.markFiled(draft);
            if (!CASE_NUMBER_PATTERN.test(caseNumber)) {
              throw new ApiProblem('legacy-bad-reply', { cause: 'no complaint number' });
            }
            audit(request, 'case-created', { filer, companyId, files: scrubbed.length });
            const receipt = issueReceipt(
              request.server.config.receiptKeys,
              caseNumber,
              contentDigest(
                fields,
                upload.files.map((f) => f.sha256),
              ),
            );
            const respondBy = ackDays === null ? null : addDays(wibToday(), ackDays);
            return { message: messages[0] ?? '', caseNumber, receipt, respondBy };
          },
        );
      });
      return reply.code(201).send(result);
    },
  );
}
