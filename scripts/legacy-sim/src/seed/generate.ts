/**
 * Many more cases than the demo seed, for load and scale runs (test knobs only): a company with ten
 * years of history. Deterministic for a given `seed`; the dates spread over the `maxAgeDays` before
 * now. Each case has the seed's shape (a status reached through logs, a line once routed, one small
 * PDF attachment shared by all of them), but no password and no reporter account.
 */
import type { Store } from '../store/store.ts';
import type { Case, CaseLog } from '../types.ts';
import { TINY_PDF } from './files.ts';
import { prng, SEED_STATUS, SEED_STATUSES } from './seed.ts';

export type GenerateCases = {
  count: number;
  /** The company every generated case belongs to (default 1). */
  companyId?: number;
  /** Filing times spread over this many days before now (default 3,650: ten years). */
  maxAgeDays?: number;
  /** PRNG seed (default 1). */
  seed?: number;
};

/** Cases a single request may add (a run wanting more asks again). */
export const MAX_GENERATED_CASES = 20_000;

const GENERATED_FILE = 'generated-bukti.pdf';

/** Adds `count` cases to the store; answers their ids. Throws on an unknown company. */
export async function generateCases(
  store: Store,
  options: GenerateCases,
  now = Date.now(),
): Promise<number[]> {
  const companyId = options.companyId ?? 1;
  if (!store.companies.get(companyId)) throw new Error(`unknown company ${companyId}`);
  const count = Math.max(0, Math.min(MAX_GENERATED_CASES, Math.trunc(options.count)));
  const maxAgeMs = Math.max(1, options.maxAgeDays ?? 3_650) * 86_400_000;
  const rand = prng(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const categories = store.caseCategories.filter((c) => c.companyId === companyId);
  const lines = store.caseLines.all();
  const byOrder = [...SEED_STATUSES].sort((a, b) => a.caseStatusOrder - b.caseStatusOrder);
  // Old reports are mostly closed; the rest spread over the handling steps.
  const statuses = [1, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 21, 21, 21, 21];
  await store.files.put(GENERATED_FILE, TINY_PDF);
  const file = { key: GENERATED_FILE, contentType: 'application/pdf', size: TINY_PDF.length };
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const caseId = store.nextId('case');
    let caseNumber = '';
    while (!caseNumber || store.casesByNumber.has(caseNumber)) {
      caseNumber = `WBS-${String(10_000_000 + Math.floor(rand() * 90_000_000))}`;
    }
    const created = Math.floor(now - 3_600_000 - rand() * maxAgeMs);
    const statusId = pick(statuses);
    const status = SEED_STATUSES.find((s) => s.caseStatusId === statusId)!;
    const steps = byOrder.filter(
      (s) =>
        s.caseStatusOrder > 1 &&
        s.caseStatusOrder <= status.caseStatusOrder &&
        (s.caseStatusId !== SEED_STATUS.REJECTED || statusId === SEED_STATUS.REJECTED) &&
        !(statusId === SEED_STATUS.REJECTED && s.caseStatusOrder > 3.2),
    );
    const logs: CaseLog[] = steps.slice(-2).map((s, k, shown) => ({
      caseLogId: store.nextId('caseLog'),
      caseStatusId: s.caseStatusId,
      message: `Status diperbarui menjadi ${s.caseStatusName}.`,
      file: null,
      created: Math.floor(created + ((now - created) * (k + 1)) / (shown.length + 2)),
      createdBy: 'Admin Perusahaan',
      createdByUserId: null,
    }));
    const anonymous = rand() < 0.4;
    const what = 'Laporan uji beban yang dibuat oleh legacy-sim';
    const c: Case = {
      caseId,
      caseNumber,
      caseTitle: what,
      created,
      companyId,
      categoryId: pick(categories).caseCategoryId,
      lineId: statusId === SEED_STATUS.NEW ? null : pick(lines).caseLineId,
      channelId: pick([1, 1, 1, 2, 3, 4]),
      statusId,
      whistleblowerId: null,
      passwordHash: null,
      createdByUserId: null,
      fields: {
        caseWhistleblowerName: anonymous ? '' : 'Pelapor Uji',
        caseWhistleblowerType: 1,
        caseWhistleblowerEmail: `uji${caseId}@mail.example.id`,
        caseWhistleblowerDept: '',
        caseWhistleblowerContactNum: '+6281200000000',
        caseWhistleblowerAddress: '',
        caseWhistleblowerIsAnonym: anonymous ? 1 : 0,
        caseWhistleblowerProvinceId: null,
        caseWhistleblowerCityId: null,
        caseWhistleblowerDistrictId: null,
        caseWhistleblowerCommunicationType: '0',
        caseWhistleblowerCommunicationTime: 'Kapan saja',
        caseWhat: what,
        caseWhen: 'Tahun lalu',
        caseWhere: 'Kantor Pusat',
        caseWhoPerpetratorAndPosition: 'Terlapor Uji, Staf',
        caseWhatDirectorate: 'Direktorat Umum',
        caseWhatDivision: 'Divisi Umum dan Pengadaan',
        caseWhoInvolvedAndPosition: '',
        caseHow: 'Uji beban.',
        caseWhatFinancialLoss: 'Belum diketahui',
        caseWhenOccuredBefore: 'Belum pernah',
        caseWhoEverReportedToAndDetails: 'Belum pernah dilaporkan',
        caseWhatPerpetratorTalkAndReponse: 'Tidak ada tanggapan',
        caseWhatRepeatableCaseReason: 'Pengawasan lemah',
        caseWhatReasonReporterIdentification: '',
        caseIsReporterNeedProtection: 0,
        caseWhatReasonForProtection: '',
        caseEvidenceLink: '',
      },
      attachments: [{ ...file, name: `dokumen-uji-${caseId}.pdf`, attachmentId: store.nextId('attachment') }],
      logs,
      allegedlyInvolveds: [],
    };
    store.addCase(c);
    ids.push(caseId);
  }
  await store.save();
  return ids;
}
