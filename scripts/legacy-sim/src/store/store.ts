/**
 * The embedded store: everything lives in memory (Maps), and each change is persisted as a whole
 * JSON document to dataDir/store.json through an atomic write. Writes are serialized through a queue
 * and coalesced (a burst of changes costs at most one extra write).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  Case,
  CaseCategory,
  CaseCategoryGroup,
  CaseLine,
  CaseStatus,
  Company,
  CompanyStaff,
  Counters,
  Db,
  Partner,
  PartnerStaff,
  User,
  Whistleblower,
} from '../types.ts';
import { STORE_VERSION } from '../types.ts';
import { removeStaleTemps, writeFileAtomic } from './atomic.ts';
import { diskFiles, type FileStore, memoryFiles } from './files.ts';
import { Table } from './table.ts';

export type Seeder = (files: FileStore) => Promise<Db>;

export class Store {
  users = new Table<User>((r) => r.wbsUserId);
  partners = new Table<Partner>((r) => r.partnerId);
  companies = new Table<Company>((r) => r.companyId);
  partnerStaff = new Table<PartnerStaff>((r) => r.partnerStaffId);
  companyStaff = new Table<CompanyStaff>((r) => r.companyStaffId);
  whistleblowers = new Table<Whistleblower>((r) => r.whistleblowerId);
  caseStatuses = new Table<CaseStatus>((r) => r.caseStatusId);
  caseLines = new Table<CaseLine>((r) => r.caseLineId);
  caseCategoryGroups = new Table<CaseCategoryGroup>((r) => r.caseCategoryGroupId);
  caseCategories = new Table<CaseCategory>((r) => r.caseCategoryId);
  cases = new Table<Case>((r) => r.caseId);
  /** Upper-cased case number → case. */
  casesByNumber = new Map<string, Case>();
  /** Lower-cased user name → user. */
  usersByName = new Map<string, User>();
  counters: Counters = emptyCounters();
  seededAt = '';

  readonly files: FileStore;
  readonly storeFile: string | null;
  readonly seeder: Seeder;
  readonly log: (message: string) => void;
  #writing: Promise<void> = Promise.resolve();
  #pending = false;

  constructor(files: FileStore, storeFile: string | null, seeder: Seeder, log: (message: string) => void) {
    this.files = files;
    this.storeFile = storeFile;
    this.seeder = seeder;
    this.log = log;
  }

  /** Opens a store: in memory (dataDir null) or loaded from dataDir/store.json (reseeded if missing or corrupt). */
  static async open(dataDir: string | null, seeder: Seeder, log: (message: string) => void): Promise<Store> {
    if (dataDir === null) {
      const store = new Store(memoryFiles(), null, seeder, log);
      store.load(await seeder(store.files));
      return store;
    }
    await mkdir(dataDir, { recursive: true });
    await removeStaleTemps(dataDir);
    const store = new Store(
      await diskFiles(join(dataDir, 'files')),
      join(dataDir, 'store.json'),
      seeder,
      log,
    );
    const db = await readDb(store.storeFile!);
    if (db.ok) {
      store.load(db.db);
    } else {
      log(`legacy-sim: ${db.reason}; seeding fresh demo data`);
      await store.reseed();
    }
    return store;
  }

  /** Replaces everything with fresh seed data (files too) and persists it. */
  async reseed(): Promise<void> {
    await this.flush();
    await this.files.clear();
    this.load(await this.seeder(this.files));
    await this.save();
  }

  load(db: Db): void {
    this.users = new Table((r) => r.wbsUserId, db.users);
    this.partners = new Table((r) => r.partnerId, db.partners);
    this.companies = new Table((r) => r.companyId, db.companies);
    this.partnerStaff = new Table((r) => r.partnerStaffId, db.partnerStaff);
    this.companyStaff = new Table((r) => r.companyStaffId, db.companyStaff);
    this.whistleblowers = new Table((r) => r.whistleblowerId, db.whistleblowers);
    this.caseStatuses = new Table((r) => r.caseStatusId, db.caseStatuses);
    this.caseLines = new Table((r) => r.caseLineId, db.caseLines);
    this.caseCategoryGroups = new Table((r) => r.caseCategoryGroupId, db.caseCategoryGroups);
    this.caseCategories = new Table((r) => r.caseCategoryId, db.caseCategories);
    this.cases = new Table((r) => r.caseId, db.cases);
    this.counters = { ...emptyCounters(), ...db.counters };
    this.seededAt = db.seededAt;
    this.reindex();
  }

  reindex(): void {
    this.casesByNumber = new Map(this.cases.all().map((c) => [c.caseNumber.toUpperCase(), c]));
    this.usersByName = new Map(this.users.all().map((u) => [u.wbsUserName.toLowerCase(), u]));
  }

  nextId(kind: keyof Counters): number {
    this.counters[kind] += 1;
    return this.counters[kind];
  }

  addUser(user: User): User {
    this.users.put(user);
    this.usersByName.set(user.wbsUserName.toLowerCase(), user);
    return user;
  }

  deleteUser(id: number | null): void {
    const user = this.users.get(id);
    if (!user) return;
    this.users.delete(user.wbsUserId);
    this.usersByName.delete(user.wbsUserName.toLowerCase());
  }

  addCase(c: Case): Case {
    this.cases.put(c);
    this.casesByNumber.set(c.caseNumber.toUpperCase(), c);
    return c;
  }

  toDb(): Db {
    return {
      version: STORE_VERSION,
      seededAt: this.seededAt,
      counters: this.counters,
      users: this.users.all(),
      partners: this.partners.all(),
      companies: this.companies.all(),
      partnerStaff: this.partnerStaff.all(),
      companyStaff: this.companyStaff.all(),
      whistleblowers: this.whistleblowers.all(),
      caseStatuses: this.caseStatuses.all(),
      caseLines: this.caseLines.all(),
      caseCategoryGroups: this.caseCategoryGroups.all(),
      caseCategories: this.caseCategories.all(),
      cases: this.cases.all(),
    };
  }

  /**
   * Persists the current state. Resolves once a write that started after this call has finished,
   * so `await store.save()` means "my change is on disk". Calls made while a write is waiting share it.
   */
  save(): Promise<void> {
    if (!this.storeFile) return Promise.resolve();
    if (this.#pending) return this.#writing;
    this.#pending = true;
    const file = this.storeFile;
    this.#writing = this.#writing
      .catch(() => undefined)
      .then(async () => {
        this.#pending = false;
        await writeFileAtomic(file, JSON.stringify(this.toDb()));
      });
    this.#writing.catch((error: unknown) => this.log(`legacy-sim: store write failed: ${String(error)}`));
    return this.#writing;
  }

  /** Waits for queued writes. */
  async flush(): Promise<void> {
    await this.#writing.catch(() => undefined);
  }
}

function emptyCounters(): Counters {
  return {
    user: 0,
    partner: 0,
    company: 0,
    partnerStaff: 0,
    companyStaff: 0,
    whistleblower: 0,
    caseStatus: 0,
    caseLine: 0,
    caseCategoryGroup: 0,
    caseCategory: 0,
    case: 0,
    attachment: 0,
    caseLog: 0,
    allegedlyInvolved: 0,
  };
}

type ReadResult = { ok: true; db: Db } | { ok: false; reason: string };

async function readDb(file: string): Promise<ReadResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { ok: false, reason: `no store at ${file}` };
  }
  try {
    const db = JSON.parse(text) as Db;
    const lists = ['users', 'partners', 'companies', 'caseStatuses', 'cases'] as const;
    if (db.version !== STORE_VERSION || !db.counters || lists.some((k) => !Array.isArray(db[k]))) {
      return { ok: false, reason: `store ${file} has an unknown shape` };
    }
    return { ok: true, db };
  } catch {
    return { ok: false, reason: `store ${file} is corrupt` };
  }
}
