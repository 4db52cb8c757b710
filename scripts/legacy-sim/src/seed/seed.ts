/**
 * The deterministic demo data set. A seeded PRNG drives every choice; only the dates move with the
 * clock (cases spread over the 12 months before `now`).
 */
import { hashPassword } from '../passwords.ts';
import type { FileStore } from '../store/files.ts';
import type {
  Attachment,
  Case,
  CaseCategory,
  CaseCategoryGroup,
  CaseLog,
  CaseStatus,
  Company,
  CompanyStaff,
  Db,
  Partner,
  PartnerStaff,
  User,
  Whistleblower,
} from '../types.ts';
import { STORE_VERSION } from '../types.ts';
import { demoAccounts, demoCases, retiredDemoCase, untouchedDemoCase } from './demo-accounts.ts';
import { TINY_PDF, TINY_PNG } from './files.ts';

export const SEED_CASE_COUNT = 200;

/**
 * Peta Laporan's demo reports (company 1, filed in the current month): appended after the
 * SEED_CASE_COUNT others. `provinceId: null` with `anonymous: false` is an identified reporter
 * naming no province.
 */
export const MAP_DEMO_CASES: readonly {
  provinceId: number | null;
  cityId: number | null;
  anonymous: boolean;
  statusId: number;
  channelId: number;
}[] = [
  { provinceId: 35, cityId: 3578, anonymous: false, statusId: 1, channelId: 1 },
  { provinceId: 35, cityId: 3578, anonymous: false, statusId: 11, channelId: 2 },
  { provinceId: 35, cityId: 3578, anonymous: false, statusId: 1, channelId: 1 },
  { provinceId: 35, cityId: 3578, anonymous: false, statusId: 21, channelId: 3 },
  { provinceId: 35, cityId: 3578, anonymous: false, statusId: 1, channelId: 1 },
  { provinceId: 35, cityId: 3573, anonymous: false, statusId: 11, channelId: 4 },
  { provinceId: 35, cityId: 3573, anonymous: false, statusId: 1, channelId: 1 },
  { provinceId: 51, cityId: 5171, anonymous: false, statusId: 1, channelId: 1 },
  { provinceId: 51, cityId: 5171, anonymous: false, statusId: 11, channelId: 2 },
  { provinceId: null, cityId: null, anonymous: true, statusId: 1, channelId: 1 },
  { provinceId: null, cityId: null, anonymous: true, statusId: 11, channelId: 3 },
  { provinceId: null, cityId: null, anonymous: true, statusId: 1, channelId: 1 },
  { provinceId: null, cityId: null, anonymous: false, statusId: 1, channelId: 1 },
];

/** mulberry32: small, fast, good enough for demo data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Statuses, shaped so that spec §4's log-form rule applied literally to ids and orders walks a report
 * forward: Baru (id 1) is treated as id 11, so id 11 is the first handling step (Diterima, order 2,
 * where the case line is chosen); every later step has an id above 11 (the line is then sent as null);
 * Ditolak (order 3.2) sits beside Verifikasi (integer order 3); the last step has order 11. Ids 2–10
 * are not used. Final (not open): Ditolak and Ditutup.
 */
export const SEED_STATUSES: CaseStatus[] = [
  { caseStatusId: 1, caseStatusName: 'Baru', caseStatusOrder: 1, final: false },
  { caseStatusId: 11, caseStatusName: 'Diterima', caseStatusOrder: 2, final: false },
  { caseStatusId: 12, caseStatusName: 'Verifikasi', caseStatusOrder: 3, final: false },
  { caseStatusId: 13, caseStatusName: 'Ditolak', caseStatusOrder: 3.2, final: true },
  { caseStatusId: 14, caseStatusName: 'Investigasi', caseStatusOrder: 4, final: false },
  { caseStatusId: 15, caseStatusName: 'Klarifikasi Terlapor', caseStatusOrder: 5, final: false },
  { caseStatusId: 16, caseStatusName: 'Pengumpulan Bukti', caseStatusOrder: 6, final: false },
  { caseStatusId: 17, caseStatusName: 'Analisis Hasil Investigasi', caseStatusOrder: 7, final: false },
  { caseStatusId: 18, caseStatusName: 'Rekomendasi', caseStatusOrder: 8, final: false },
  { caseStatusId: 19, caseStatusName: 'Tindak Lanjut', caseStatusOrder: 9, final: false },
  { caseStatusId: 20, caseStatusName: 'Pelaporan Hasil', caseStatusOrder: 10, final: false },
  { caseStatusId: 21, caseStatusName: 'Ditutup', caseStatusOrder: 11, final: true },
];
/** The seed's named steps, for the demo cases and tests (ids are the legacy's, see above). */
export const SEED_STATUS = { NEW: 1, ACCEPTED: 11, REJECTED: 13, INVESTIGATION: 14, CLOSED: 21 } as const;

const LINES = ['Jalur Direksi', 'Jalur Dewan Pengawas', 'Jalur SPI'];

const COMPANIES = [
  ['CMP-001', 'Perumda Air Minum Tirta Kahuripan', '0218753125', 'Jl. Raya Cibinong No. 11', 32, 3201],
  ['CMP-002', 'PDAM Tirta Pakuan', '0251832411', 'Jl. Siliwangi No. 121', 32, 3271],
  ['CMP-003', 'Perumda Air Minum Tirta Raharja', '0225941006', 'Jl. Raya Soreang Km. 17', 32, 3204],
] as const;

/** Category groups and categories; company 3 has categories without groups. */
const GROUPS: [string, string[]][] = [
  [
    'Kecurangan (Fraud)',
    ['Korupsi', 'Suap dan Gratifikasi', 'Penggelapan Aset', 'Manipulasi Laporan Keuangan'],
  ],
  ['Pelanggaran Etika', ['Benturan Kepentingan', 'Pelanggaran Kode Etik', 'Pelecehan dan Perundungan']],
  ['Pelanggaran Operasional', ['Penyalahgunaan Wewenang', 'Pelanggaran Pengadaan Barang dan Jasa']],
];
const UNGROUPED = ['Korupsi', 'Gratifikasi', 'Pencurian Air', 'Pelanggaran Kode Etik', 'Lainnya'];

const PEOPLE = [
  'Budi Santoso',
  'Siti Rahmawati',
  'Agus Wijaya',
  'Dewi Lestari',
  'Rudi Hartono',
  'Intan Permata',
  'Hendra Gunawan',
  'Maya Sari',
  'Yusuf Maulana',
  'Rina Kusuma',
];
const POSITIONS = [
  'Kepala Seksi Pengadaan',
  'Manajer Distribusi',
  'Staf Keuangan',
  'Kepala Cabang',
  'Petugas Lapangan',
];
const WHATS = [
  'Pengadaan pipa distribusi dengan harga jauh di atas harga pasar',
  'Penerimaan uang dari rekanan untuk memenangkan tender',
  'Pemakaian kendaraan dinas untuk kepentingan pribadi',
  'Manipulasi data meter pelanggan untuk menutupi kebocoran',
  'Sambungan liar yang dibiarkan dengan imbalan',
  'Perlakuan tidak pantas kepada rekan kerja',
  'Penagihan di luar tarif resmi kepada pelanggan',
  'Persetujuan anggaran tanpa dokumen pendukung',
];
const WHERES = [
  'Kantor Pusat',
  'Cabang Cibinong',
  'Instalasi Pengolahan Air',
  'Gudang Logistik',
  'Unit Pelayanan',
];

function randomDigits(rand: () => number, count: number): string {
  let out = String(1 + Math.floor(rand() * 9));
  while (out.length < count) out += String(Math.floor(rand() * 10));
  return out;
}

export async function seed(files: FileStore, now = Date.now()): Promise<Db> {
  const rand = prng(20260503);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const saltBytes = () => Buffer.from(Array.from({ length: 16 }, () => Math.floor(rand() * 256)));

  let userId = 0;
  const users: User[] = [];
  const addUser = async (
    username: string,
    email: string,
    userTypeId: number,
    links: Partial<User>,
    fallbackPassword?: string,
  ): Promise<User> => {
    const demo = demoAccounts.find((a) => a.username === username);
    const password = demo?.password ?? fallbackPassword ?? 'Demo#2026!';
    const init = demo?.initPassword ? 1 : 0;
    const user: User = {
      wbsUserId: ++userId,
      wbsUserName: username,
      wbsUserEmail: email,
      wbsUserUserTypeId: userTypeId,
      wbsUserRole: demo?.role ?? 1,
      wbsUserInitPassword: init,
      passwordHash: await hashPassword(password, saltBytes()),
      initialPassword: init ? password : null,
      partnerId: null,
      partnerStaffId: null,
      partnerStaffPartnerId: null,
      companyId: null,
      companyStaffId: null,
      companyStaffCompanyId: null,
      whistleblowerId: null,
      whistleblowerCompanyId: null,
      ...links,
    };
    users.push(user);
    return user;
  };

  await addUser('admin', 'admin@wbs.example.id', 1, {});

  const holding = await addUser('holding', 'wbs@holding-airminum.example.id', 3, { partnerId: 1 });
  const partners: Partner[] = [
    {
      partnerId: 1,
      partnerCode: 'PRT-001',
      partnerName: 'Holding Air Minum Nusantara',
      partnerPhone: '0215201234',
      partnerAddress: 'Jl. Jenderal Sudirman Kav. 52, Jakarta',
      partnerProvinceId: 31,
      partnerCityId: 3174,
      wbsUserId: holding.wbsUserId,
    },
  ];

  const companies: Company[] = [];
  const adminNames = ['admin.kahuripan', 'admin.pakuan', 'admin.raharja'];
  for (const [i, [code, name, phone, address, provinceId, cityId]] of COMPANIES.entries()) {
    const companyId = i + 1;
    const admin = await addUser(adminNames[i]!, `${adminNames[i]}@wbs.example.id`, 2, { companyId });
    companies.push({
      companyId,
      companyCode: code,
      companyName: name,
      companyPhone: phone,
      companyAddress: address,
      companyProvinceId: provinceId,
      companyCityId: cityId,
      companyPartnerId: 1,
      wbsUserId: admin.wbsUserId,
    });
  }

  const partnerStaff: PartnerStaff[] = [];
  for (const [username, fullName] of [
    ['staff.holding', 'Andi Prasetyo'],
    ['staff.holding2', 'Larasati Putri'],
  ] as const) {
    const partnerStaffId = partnerStaff.length + 1;
    const user = await addUser(username, `${username}@wbs.example.id`, 5, {
      partnerStaffId,
      partnerStaffPartnerId: 1,
    });
    partnerStaff.push({
      partnerStaffId,
      partnerStaffPartnerId: 1,
      partnerStaffFullName: fullName,
      wbsUserId: user.wbsUserId,
    });
  }

  const companyStaff: CompanyStaff[] = [];
  for (const [username, fullName, companyId, lineId] of [
    ['analis.direksi', 'Bambang Suryadi', 1, 1],
    ['analis.spi', 'Nur Aini', 1, 3],
    ['analis.baru', 'Fajar Nugroho', 1, 2],
    ['analis.pakuan', 'Wulan Anggraini', 2, 1],
    ['analis.raharja', 'Teguh Setiawan', 3, 3],
  ] as const) {
    const companyStaffId = companyStaff.length + 1;
    const user = await addUser(username, `${username}@wbs.example.id`, 4, {
      companyStaffId,
      companyStaffCompanyId: companyId,
    });
    companyStaff.push({
      companyStaffId,
      companyStaffCompanyId: companyId,
      companyStaffFullName: fullName,
      companyStaffCaseLineId: lineId,
      wbsUserId: user.wbsUserId,
    });
  }

  const pelapor = await addUser('pelapor', 'pelapor@mail.example.id', 6, {
    whistleblowerId: 1,
    whistleblowerCompanyId: 1,
  });
  const whistleblowers: Whistleblower[] = [
    {
      whistleblowerId: 1,
      whistleblowerCompanyId: 1,
      whistleblowerFullName: 'Rahmat Hidayat',
      whistleblowerIsAnonymous: false,
      wbsUserId: pelapor.wbsUserId,
    },
  ];

  const caseLines = LINES.map((caseLineName, i) => ({ caseLineId: i + 1, caseLineName }));

  const caseCategoryGroups: CaseCategoryGroup[] = [];
  const caseCategories: CaseCategory[] = [];
  for (const company of companies) {
    if (company.companyId === 3) {
      for (const caseCategoryName of UNGROUPED) {
        caseCategories.push({
          caseCategoryId: caseCategories.length + 1,
          caseCategoryName,
          caseCategoryGroupId: null,
          companyId: 3,
        });
      }
      continue;
    }
    for (const [groupName, names] of GROUPS) {
      const group = {
        caseCategoryGroupId: caseCategoryGroups.length + 1,
        caseCategoryGroupName: groupName,
        companyId: company.companyId,
      };
      caseCategoryGroups.push(group);
      for (const caseCategoryName of names) {
        caseCategories.push({
          caseCategoryId: caseCategories.length + 1,
          caseCategoryName,
          caseCategoryGroupId: group.caseCategoryGroupId,
          companyId: company.companyId,
        });
      }
    }
  }

  await files.put('seed-bukti.png', TINY_PNG);
  await files.put('seed-bukti.pdf', TINY_PDF);
  const png = { key: 'seed-bukti.png', contentType: 'image/png', size: TINY_PNG.length };
  const pdf = { key: 'seed-bukti.pdf', contentType: 'application/pdf', size: TINY_PDF.length };

  const byOrder = [...SEED_STATUSES].sort((a, b) => a.caseStatusOrder - b.caseStatusOrder);
  const statusWeights: [number, number][] = [
    [1, 18],
    [11, 12],
    [12, 12],
    [13, 8],
    [14, 12],
    [15, 6],
    [16, 6],
    [17, 5],
    [18, 5],
    [19, 5],
    [20, 4],
    [21, 30],
  ];
  const totalWeight = statusWeights.reduce((sum, [, w]) => sum + w, 0);
  const pickStatus = () => {
    let r = rand() * totalWeight;
    for (const [id, w] of statusWeights) {
      r -= w;
      if (r < 0) return id;
    }
    return 1;
  };
  const handlerName = (companyId: number) =>
    companyStaff.find((s) => s.companyStaffCompanyId === companyId)?.companyStaffFullName ??
    'Admin Perusahaan';

  const cases: Case[] = [];
  const numbers = new Set<string>([
    ...demoCases.map((d) => d.caseNumber),
    untouchedDemoCase.caseNumber,
    retiredDemoCase.caseNumber,
  ]);
  let attachmentId = 0;
  let caseLogId = 0;
  let allegedId = 0;
  const YEAR = 365 * 86_400_000;

  for (let i = 0; i < SEED_CASE_COUNT; i++) {
    const caseId = i + 1;
    const demo = demoCases[i];
    const companyId = demo ? (i === 2 ? 2 : 1) : rand() < 0.5 ? 1 : rand() < 0.6 ? 2 : 3;
    const statusId = demo
      ? [SEED_STATUS.NEW, SEED_STATUS.INVESTIGATION, SEED_STATUS.CLOSED][i]!
      : pickStatus();
    // Demo cases are recent; the others spread over the last 12 months.
    const created = Math.floor(now - (demo ? (i + 1) * 86_400_000 : 3600_000 + rand() * (YEAR - 7_200_000)));
    let caseNumber: string = demo?.caseNumber ?? '';
    while (!caseNumber) {
      const candidate = `WBS-${randomDigits(rand, 8)}`;
      if (!numbers.has(candidate)) caseNumber = candidate;
    }
    numbers.add(caseNumber);

    const categories = caseCategories.filter((c) => c.companyId === companyId);
    const category = pick(categories);
    const anonymous = demo ? true : rand() < 0.4;
    const linked = !demo && companyId === 1 && rand() < 0.08;
    const reporter = linked ? 'Rahmat Hidayat' : anonymous ? '' : pick(PEOPLE);
    const perpetrator = pick(PEOPLE);
    const what = pick(WHATS);
    const status = SEED_STATUSES.find((s) => s.caseStatusId === statusId)!;

    const attachments: Attachment[] = [];
    const fileCount = 1 + Math.floor(rand() * 2);
    for (let f = 0; f < fileCount; f++) {
      const file = f === 0 && rand() < 0.5 ? png : pdf;
      attachments.push({
        attachmentId: ++attachmentId,
        name: file === png ? `foto-bukti-${caseId}.png` : `dokumen-bukti-${caseId}-${f + 1}.pdf`,
        ...file,
      });
    }

    // Logs walk up the ordered statuses to the current one.
    const path = byOrder.filter(
      (s) =>
        s.caseStatusOrder > 1 &&
        s.caseStatusOrder <= status.caseStatusOrder &&
        (s.caseStatusId !== SEED_STATUS.REJECTED || statusId === SEED_STATUS.REJECTED) &&
        !(statusId === SEED_STATUS.REJECTED && s.caseStatusOrder > 3.2),
    );
    const steps = path.length <= 3 ? path : [...path.slice(0, 1), ...path.slice(-2)];
    const logs: CaseLog[] = steps.map((s, k) => {
      const withFile = rand() < 0.15;
      return {
        caseLogId: ++caseLogId,
        caseStatusId: s.caseStatusId,
        message: `Status diperbarui menjadi ${s.caseStatusName}. ${k === 0 ? 'Laporan diterima dan ditelaah.' : 'Tindak lanjut sesuai prosedur.'}`,
        file: withFile ? { name: `catatan-${caseId}-${k + 1}.pdf`, ...pdf } : null,
        created: Math.floor(created + ((now - created) * (k + 1)) / (steps.length + 1)),
        createdBy: handlerName(companyId),
        createdByUserId: null,
      };
    });

    const involvedCount = Math.floor(rand() * 3);
    const allegedlyInvolveds = Array.from({ length: involvedCount }, () => ({
      allegedlyInvolvedId: ++allegedId,
      allegedlyInvolvedName: pick(PEOPLE),
      allegedlyInvolvedPosition: pick(POSITIONS),
      allegedlyInvolvedDescription: rand() < 0.5 ? pick(WHERES) : '',
    }));

    cases.push({
      caseId,
      caseNumber,
      caseTitle: what,
      created,
      companyId,
      categoryId: category.caseCategoryId,
      lineId: statusId === SEED_STATUS.NEW ? null : 1 + Math.floor(rand() * caseLines.length),
      channelId: demo ? 1 : pick([1, 1, 1, 2, 3, 4]),
      statusId,
      whistleblowerId: linked ? 1 : null,
      passwordHash: demo ? await hashPassword(demo.password, saltBytes()) : null,
      createdByUserId: linked ? pelapor.wbsUserId : null,
      fields: {
        caseWhistleblowerName: reporter,
        caseWhistleblowerType: anonymous ? 1 : pick([1, 1, 2]),
        caseWhistleblowerEmail: `pelapor${caseId}@mail.example.id`,
        caseWhistleblowerDept: anonymous ? '' : pick(['Divisi Keuangan', 'Divisi Distribusi', 'Masyarakat']),
        caseWhistleblowerContactNum: `+62812${randomDigits(rand, 7)}`,
        caseWhistleblowerAddress: anonymous ? '' : `Jl. Merdeka No. ${1 + Math.floor(rand() * 99)}`,
        caseWhistleblowerIsAnonym: anonymous ? 1 : 0,
        caseWhistleblowerProvinceId: anonymous ? null : 32,
        caseWhistleblowerCityId: anonymous ? null : 3201,
        caseWhistleblowerDistrictId: anonymous ? null : 320101,
        caseWhistleblowerCommunicationType: pick(['0', '0,1', '2', '0,3']),
        caseWhistleblowerCommunicationTime: pick(['Pagi (08.00-12.00)', 'Siang (12.00-15.00)', 'Kapan saja']),
        caseWhat: what,
        caseWhen: pick(['Awal bulan ini', 'Sekitar tiga bulan lalu', 'Sepanjang tahun lalu']),
        caseWhere: pick(WHERES),
        caseWhoPerpetratorAndPosition: `${perpetrator}, ${pick(POSITIONS)}`,
        caseWhatDirectorate: pick(['Direktorat Umum', 'Direktorat Teknik', 'Direktorat Keuangan']),
        caseWhatDivision: pick(['Divisi Distribusi', 'Divisi Keuangan', 'Divisi Umum dan Pengadaan']),
        caseWhoInvolvedAndPosition: rand() < 0.5 ? `${pick(PEOPLE)}, ${pick(POSITIONS)}` : '',
        caseHow: 'Dilakukan berulang kali dengan memanfaatkan kelemahan pengawasan.',
        caseWhatFinancialLoss: pick(['Belum diketahui', 'Sekitar Rp 50.000.000', 'Sekitar Rp 250.000.000']),
        caseWhenOccuredBefore: pick(['Belum pernah', 'Pernah, tahun lalu']),
        caseWhoEverReportedToAndDetails: pick([
          'Belum pernah dilaporkan',
          'Atasan langsung, belum ada tindak lanjut',
        ]),
        caseWhatPerpetratorTalkAndReponse: 'Tidak ada tanggapan',
        caseWhatRepeatableCaseReason: 'Pengawasan lemah',
        caseWhatReasonReporterIdentification: anonymous ? 'Khawatir akan pembalasan' : '',
        caseIsReporterNeedProtection: rand() < 0.6 ? 1 : 0,
        caseWhatReasonForProtection: 'Khawatir akan mutasi atau intimidasi',
        caseEvidenceLink: rand() < 0.3 ? 'https://drive.example.id/bukti' : '',
      },
      attachments,
      logs,
      allegedlyInvolveds,
    });
  }

  // The fourth case becomes the untouched one (after the loop, so every other case keeps its seed).
  const untouched = cases[demoCases.length];
  if (untouched) {
    untouched.caseNumber = untouchedDemoCase.caseNumber;
    untouched.caseTitle = untouched.fields.caseWhat as string;
    untouched.created = Math.floor(now - untouchedDemoCase.daysAgo * 86_400_000);
    untouched.companyId = 1;
    untouched.categoryId = caseCategories.find((c) => c.companyId === 1)!.caseCategoryId;
    untouched.lineId = null;
    untouched.statusId = SEED_STATUS.NEW;
    untouched.whistleblowerId = null;
    untouched.createdByUserId = null;
    untouched.passwordHash = await hashPassword(untouchedDemoCase.password, saltBytes());
    untouched.logs = [];
  }

  // The fifth becomes the one closed long ago: filed a month before its closing, accepted, then
  // Ditutup on the day `closedMonthsAgo` months before the seed.
  const retired = cases[demoCases.length + 1];
  if (retired) {
    const closing = new Date(now);
    closing.setUTCMonth(closing.getUTCMonth() - retiredDemoCase.closedMonthsAgo);
    const closedAt = closing.getTime();
    const filedAt = closedAt - 30 * 86_400_000;
    const handler = handlerName(1);
    retired.caseNumber = retiredDemoCase.caseNumber;
    retired.caseTitle = retired.fields.caseWhat as string;
    retired.created = Math.floor(filedAt);
    retired.companyId = 1;
    retired.categoryId = caseCategories.find((c) => c.companyId === 1)!.caseCategoryId;
    retired.lineId = retired.lineId ?? 1;
    retired.statusId = SEED_STATUS.CLOSED;
    retired.whistleblowerId = null;
    retired.createdByUserId = null;
    retired.passwordHash = await hashPassword(retiredDemoCase.password, saltBytes());
    retired.logs = [
      {
        caseLogId: ++caseLogId,
        caseStatusId: SEED_STATUS.ACCEPTED,
        message: 'Status diperbarui menjadi Diterima. Laporan diterima dan ditelaah.',
        file: null,
        created: Math.floor(filedAt + 2 * 86_400_000),
        createdBy: handler,
        createdByUserId: null,
      },
      {
        caseLogId: ++caseLogId,
        caseStatusId: SEED_STATUS.CLOSED,
        message: 'Status diperbarui menjadi Ditutup. Penanganan selesai.',
        file: null,
        created: Math.floor(closedAt),
        createdBy: handler,
        createdByUserId: null,
      },
    ];
  }

  // Peta Laporan's demo (docs/product/insights.md): reports of company 1 filed in the current month
  // (WIB), the dashboard's default range, whatever the day: Jawa Timur with 7 identified reports over
  // two cities (Kota Surabaya 5, Kota Malang 2: one city shown, one "<5"), Bali with 2 (a province
  // shown "<5", no drill-down), and 4 "Tanpa lokasi" (3 anonymous, 1 identified naming no province).
  // Appended after every other case, so the cases above keep their seed.
  const mapRand = prng(4_242);
  const wibNow = new Date(now + 7 * 3_600_000);
  const monthStart = Date.UTC(wibNow.getUTCFullYear(), wibNow.getUTCMonth(), 1) - 7 * 3_600_000;
  const span = Math.max(60_000, now - monthStart - 60_000);
  const mapDemo = MAP_DEMO_CASES.map((d, k) => ({
    ...d,
    created: Math.floor(monthStart + (span * (k + 1)) / (MAP_DEMO_CASES.length + 1)),
  }));
  const mapCategory = caseCategories.find((c) => c.companyId === 1)!;
  for (const d of mapDemo) {
    let caseNumber = '';
    while (!caseNumber || numbers.has(caseNumber)) caseNumber = `WBS-${randomDigits(mapRand, 8)}`;
    numbers.add(caseNumber);
    const caseId = cases.length + 1;
    const template = cases[demoCases.length + 2]!;
    const handled = d.statusId !== SEED_STATUS.NEW;
    const anonymous = d.provinceId === null && d.anonymous;
    cases.push({
      ...template,
      caseId,
      caseNumber,
      caseTitle: template.caseTitle,
      created: d.created,
      companyId: 1,
      categoryId: mapCategory.caseCategoryId,
      lineId: handled ? 1 : null,
      channelId: d.channelId,
      statusId: d.statusId,
      whistleblowerId: null,
      passwordHash: null,
      createdByUserId: null,
      fields: {
        ...template.fields,
        caseWhistleblowerName: anonymous ? '' : PEOPLE[Math.floor(mapRand() * PEOPLE.length)]!,
        caseWhistleblowerAddress: anonymous ? '' : 'Jl. Pahlawan No. 5',
        caseWhistleblowerIsAnonym: anonymous ? 1 : 0,
        caseWhistleblowerProvinceId: d.provinceId,
        caseWhistleblowerCityId: d.cityId,
        caseWhistleblowerDistrictId: d.cityId === null ? null : d.cityId * 100 + 1,
      },
      attachments: [],
      // A handled one was accepted halfway between its filing and the seed (Diterima, then Ditutup).
      logs: handled
        ? [SEED_STATUS.ACCEPTED, ...(d.statusId === SEED_STATUS.CLOSED ? [SEED_STATUS.CLOSED] : [])].map(
            (statusId, step) => ({
              caseLogId: ++caseLogId,
              caseStatusId: statusId,
              message: `Status diperbarui menjadi ${SEED_STATUSES.find((x) => x.caseStatusId === statusId)!.caseStatusName}.`,
              file: null,
              created: Math.floor(d.created + ((now - d.created) * (step + 1)) / 3),
              createdBy: handlerName(1),
              createdByUserId: null,
            }),
          )
        : [],
      allegedlyInvolveds: [],
    });
  }

  return {
    version: STORE_VERSION,
    seededAt: new Date(now).toISOString(),
    counters: {
      user: userId,
      partner: partners.length,
      company: companies.length,
      partnerStaff: partnerStaff.length,
      companyStaff: companyStaff.length,
      whistleblower: whistleblowers.length,
      caseStatus: Math.max(...SEED_STATUSES.map((s) => s.caseStatusId)),
      caseLine: caseLines.length,
      caseCategoryGroup: caseCategoryGroups.length,
      caseCategory: caseCategories.length,
      case: cases.length,
      attachment: attachmentId,
      caseLog: caseLogId,
      allegedlyInvolved: allegedId,
    },
    users,
    partners,
    companies,
    partnerStaff,
    companyStaff,
    whistleblowers,
    caseStatuses: SEED_STATUSES.map((s) => ({ ...s })),
    caseLines,
    caseCategoryGroups,
    caseCategories,
    cases,
  };
}
