/**
 * Demo credentials seeded by legacy-sim. Imported by the gateway tests and the browser journeys
 * through `@wbs/legacy-sim`. Keep in sync with the README table (the seed reads this list).
 */
export type DemoAccount = {
  username: string;
  password: string;
  userTypeId: 1 | 2 | 3 | 4 | 5 | 6;
  /** 1 privileged (Supervisor), 2 normal (Staff). */
  role: 1 | 2;
  /** true: the account still has its initial password (must change it first). */
  initPassword: boolean;
  description: string;
};

export const demoAccounts: readonly DemoAccount[] = [
  {
    username: 'admin',
    password: 'Admin#2026!',
    userTypeId: 1,
    role: 1,
    initPassword: false,
    description: 'Administrator (holding master admin)',
  },
  {
    username: 'admin.kahuripan',
    password: 'Perusahaan#2026!',
    userTypeId: 2,
    role: 1,
    initPassword: false,
    description: 'Admin Perusahaan of company 1, Perumda Air Minum Tirta Kahuripan',
  },
  {
    username: 'admin.pakuan',
    password: 'Perusahaan#2026!',
    userTypeId: 2,
    role: 1,
    initPassword: false,
    description: 'Admin Perusahaan of company 2, PDAM Tirta Pakuan',
  },
  {
    username: 'holding',
    password: 'Partner#2026!',
    userTypeId: 3,
    role: 1,
    initPassword: false,
    description: 'Partner 1, Holding Air Minum Nusantara',
  },
  {
    username: 'analis.direksi',
    password: 'Analis#2026!',
    userTypeId: 4,
    role: 1,
    initPassword: false,
    description: 'Staff Perusahaan (analyst) of company 1, Jalur Direksi, Supervisor',
  },
  {
    username: 'analis.spi',
    password: 'Analis#2026!',
    userTypeId: 4,
    role: 2,
    initPassword: false,
    description: 'Staff Perusahaan (analyst) of company 1, Jalur SPI, Staff',
  },
  {
    username: 'staff.holding',
    password: 'Staff#2026!',
    userTypeId: 5,
    role: 1,
    initPassword: false,
    description: 'Staff Partner of partner 1, Supervisor',
  },
  {
    username: 'staff.holding2',
    password: 'Staff#2026!',
    userTypeId: 5,
    role: 2,
    initPassword: false,
    description: 'Staff Partner of partner 1, Staff',
  },
  {
    username: 'pelapor',
    password: 'Pelapor#2026!',
    userTypeId: 6,
    role: 2,
    initPassword: false,
    description: 'Pelapor (signed-in whistleblower) of company 1',
  },
  {
    username: 'analis.baru',
    password: 'Awal#2026!',
    userTypeId: 4,
    role: 2,
    initPassword: true,
    description: 'Staff Perusahaan of company 1 with an initial password (must change it)',
  },
];

/** Demo cases filed anonymously: track them with POST /api/WBSCase/Whistleblower/byNumber. */
export const demoCases = [
  { caseNumber: 'WBS-10000001', password: 'Lapor#2026!', description: 'Baru (status id 1), company 1' },
  {
    caseNumber: 'WBS-10000002',
    password: 'Lapor#2026!',
    description: 'Investigasi (status id 14), company 1, with logs',
  },
  {
    caseNumber: 'WBS-10000003',
    password: 'Lapor#2026!',
    description: 'Ditutup (status id 21, final), company 2',
  },
] as const;

/**
 * A report filed 8 days before the seed and never touched (Baru, no log, no message): past its
 * acknowledgement deadline (7 days) from the first day, for the handling-clock journeys.
 */
export const untouchedDemoCase = {
  caseNumber: 'WBS-10000004',
  password: 'Lapor#2026!',
  description: 'Baru (status id 1), company 1, filed 8 days ago and never touched: overdue',
  daysAgo: 8,
} as const;

/**
 * A report closed long ago: its final log entry (Ditutup) is dated 13 months before the seed, past the
 * group's default retention period of 12 months, for the retention scan and the disposal register.
 */
export const retiredDemoCase = {
  caseNumber: 'WBS-10000005',
  password: 'Lapor#2026!',
  description: 'Ditutup (status id 21, final), company 1, closed 13 months before the seed: past retention',
  closedMonthsAgo: 13,
} as const;
