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
import * as v from 'valibot';
import { ackDaysOf } from '../../clocks/service.ts';
import { ApiProblem } from '../../errors.ts';
import { legacyCategories } from '../../legacy/categories.ts';
import { audit } from '../../logging.ts';
import { floodLimiter } from '../../policies/flood-limits.ts';
import { assertCompanyInScope, ownCompanyId } from '../../policies/scope.ts';
import { issueReceipt } from '../../receipts/issue.ts';
import { contentDigest } from '../../receipts/receipt.ts';
import { routeSchema } from '../../schema.ts';
import { idempotencyKeyOf, runIdempotent, submissionFingerprint } from '../../uploads/idempotency.ts';
import { postLegacyMultipart } from '../../uploads/legacy-upload.ts';
import { scrubFiles } from '../../uploads/scrub.ts';
import { type SpooledFile, validUpload, withSpooledUpload } from '../../uploads/spool.ts';

const LEGACY_PATHS: Record<Filer, string> = {
  guest: '/WBSCase/Whistleblower',
  company: '/WBSCase/Company',
  partner: '/WBSCase/Partner',
};

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

const flag = (value: boolean) => (value ? '1' : '0');

/** Our fields → the legacy's multipart text parts (spec §3 "Case creation fields"). */
function legacyCaseFields(input: CaseCreateInput, filer: Filer, companyId: number): Record<string, string> {
  const fields: Record<string, string> = {
    caseWhistleblowerIsAnonym: flag(input.anonymous),
    caseAnonym: flag(input.anonymous),
    caseCompanyId: String(companyId),
    caseChannelId: String(input.channelId ?? 1),
    caseCaseStatusId: '1',
    caseCaseCategoryId: String(input.categoryId),
    caseWhat: input.what,
    caseWhen: input.when,
    caseWhere: input.where,
    caseWhoPerpetratorAndPosition: input.perpetrator,
    caseWhatDirectorate: input.directorate,
    caseWhatDivision: input.division,
    caseHow: input.how,
    caseWhoInvolvedAndPosition: input.involved,
    caseWhatFinancialLoss: input.financialLoss,
    caseWhenOccuredBefore: input.occurredBefore,
    caseWhoEverReportedToAndDetails: input.reportedToBefore,
    caseWhatPerpetratorTalkAndReponse: input.perpetratorResponse,
    caseWhatRepeatableCaseReason: input.repeatReason,
    caseWhatReasonReporterIdentification: input.identificationReason,
    caseIsReporterNeedProtection: flag(input.needsProtection),
    caseWhatReasonForProtection: input.protectionReason,
    caseEvidenceLink: input.evidenceLink,
    // Anonymous reports: name and department empty, no address or location (spec §4).
    caseWhistleblowerName: input.anonymous ? '' : input.name,
    caseWhistleblowerDept: input.anonymous ? '' : input.department,
    caseWhistleblowerEmail: input.email,
    caseWhistleblowerContactNum: input.phone,
    caseWhistleblowerType: String(input.reporterType),
    caseWhistleblowerCommunicationType: input.communicationTypes.join(','),
    caseWhistleblowerCommunicationTime: input.communicationTime,
    allegedlyinvolveds: JSON.stringify(
      input.allegedlyInvolved.map((row) => ({
        allegedlyInvolvedName: row.name,
        allegedlyInvolvedPosition: row.position,
        allegedlyInvolvedDescription: row.description,
      })),
    ),
  };
  if (!input.anonymous) {
    fields.caseWhistleblowerAddress = input.address;
    fields.caseWhistleblowerProvinceId = String(input.provinceId);
    fields.caseWhistleblowerCityId = String(input.cityId);
    fields.caseWhistleblowerDistrictId = String(input.districtId);
  }
  if (filer === 'guest') {
    fields.casePassword = input.password;
    fields.caseConfirmPassword = input.confirmPassword;
  }
  return fields;
}

/** The company the report goes to: from the session, or a partner's own company named in the form. */
async function targetCompany(request: FastifyRequest, filer: Filer, input: CaseCreateInput): Promise<number> {
  if (filer === 'guest') return GUEST_COMPANY_ID;
  if (filer === 'company') return ownCompanyId(request);
  const companyId = input.companyId ?? 0;
  await assertCompanyInScope(request, companyId);
  return companyId;
}

/** The main evidence first (the legacy stores `caseFile` as the first attachment), then the rest. */
function legacyFiles(files: SpooledFile[]) {
  return [...files]
    .sort((a, b) => Number(b.field === 'evidence') - Number(a.field === 'evidence'))
    .map((file) => ({ field: file.field === 'evidence' ? 'caseFile' : 'attachments', file }));
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
      const result = await withSpooledUpload(request, CASE_CREATE_FILES, async (upload) => {
        const input = validUpload(parseCaseCreateFields(upload.fields, filer), upload);
        const companyId = await targetCompany(request, filer, input);
        const categories = await legacyCategories(request, companyId);
        if (!categories.some((c) => c.caseCategoryId === input.categoryId)) {
          throw new ApiProblem('validation', { errors: { categoryId: FIELD_MESSAGES.categoryRequired } });
        }
        const fields = legacyCaseFields(input, filer, companyId);
        // Read before filing: once the legacy holds the report, nothing may fail its reply.
        const ackDays = await ackDaysOf(request, companyId);
        const fingerprint = submissionFingerprint(request.server.config.sessionSecret, {
          path: LEGACY_PATHS[filer],
          fields,
          files: upload.files.map((f) => [f.field, f.name, f.sha256]),
        });
        const namespace = request.session ? `user:${request.session.user.id}` : 'guest';
        return runIdempotent<CaseCreatedReply>(
          request,
          { scope: 'case', namespace, key, fingerprint },
          async () => {
            const scrubbed = await scrubFiles(request, upload.files);
            const { data, messages } = await postLegacyMultipart(request, {
              name: `WBSCase.create.${filer}`,
              path: LEGACY_PATHS[filer],
              ...(filer === 'guest' ? { auth: null } : {}),
              fields,
              files: legacyFiles(scrubbed),
              data: v.optional(v.nullable(v.object({ caseNumber: v.optional(v.string()) })), null),
            });
            const caseNumber = messages[1]?.trim() || data?.caseNumber || '';
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
