/**
 * A draft's limits under parallel upload creation: however many creations arrive at once, on one
 * gateway or on two replicas sharing the drafts folder and PostgreSQL, a draft keeps its form's file
 * count, its per-field count and its byte bound; every extra creation is refused with the form's
 * message. Through the real app against legacy-sim; the replicas are two apps on one real database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoCases } from '@wbs/legacy-sim';
import { format, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeTestEnv } from '../../test/databases.ts';
import { browser, buildTestApp, ORIGIN, signInAs, type TestApp } from '../../test/helpers.ts';
import {
  createUpload,
  draftFiles,
  openDraft,
  openDraftAt,
  TUS,
  uploadIdOf,
  uploadWhole,
} from '../../test/tus.ts';
import {
  guestAnonymousFields,
  legacyCaseCount,
  legacyToken,
  legacyTrack,
  multipart,
  pdfBytes,
} from '../../test/uploads.ts';
import { settleUpload } from '../../uploads/resumable.ts';

const MB = 1024 * 1024;
const [baru] = demoCases;
const tooMany = (limit: number) => format(TEMPLATE_MESSAGES.tooManyAttachments, { limit });
const SETTINGS = {
  TRACKING_FAILURE_FLOOR_MS: '50',
  TRACKING_MAX_PER_NUMBER: '500',
  TRACKING_MAX_PER_CLIENT: '1000',
  UPLOAD_DRAFTS_MAX_PER_CLIENT: '500',
};

type Creation = { field: 'evidence' | 'attachments'; size: number };

/** Fourteen or so creations at once, of either field, each within the 10 MB a file may have. */
const burst = fc.array(
  fc.record({
    field: fc.constantFrom('evidence' as const, 'attachments' as const),
    size: fc.integer({ min: 1, max: 10 * MB }),
  }),
  { minLength: 8, maxLength: 16 },
);

type Draftable = { apps: TestApp[]; headers: Record<string, string> };

/** Sends every creation at once, spread over the apps (replicas); answers the replies in order. */
function createAll(target: Draftable, token: string, creations: readonly Creation[]) {
  return Promise.all(
    creations.map((c, i) =>
      createUpload(
        target.apps[i % target.apps.length]?.app as TestApp['app'],
        token,
        { field: c.field, name: `bukti-${i}.pdf`, size: c.size },
        target.headers,
      ),
    ),
  );
}

/** The draft after the burst: what it lists, and that it is what the creations were told. */
async function expectWithin(
  target: Draftable,
  token: string,
  creations: readonly Creation[],
  limits: {
    total: number;
    perField: Partial<Record<Creation['field'], number>>;
    /** What a refusal may say: the form's total (as its one-request path says it), or the field's. */
    messages: string[];
  },
) {
  const replies = await createAll(target, token, creations);
  const admitted = replies.flatMap((r, i) => (r.statusCode === 201 ? [{ ...creations[i], reply: r }] : []));
  const first = target.apps[0]?.app as TestApp['app'];
  const items = (await draftFiles(first, token, target.headers)).json().items as {
    id: string;
    field: string;
    size: number;
  }[];
  expect(items.length).toBeLessThanOrEqual(limits.total);
  expect(items.map((f) => f.id).sort()).toEqual(
    admitted.map((a) => uploadIdOf(a.reply.headers.location)).sort(),
  );
  for (const [field, max] of Object.entries(limits.perField)) {
    expect(items.filter((f) => f.field === field).length).toBeLessThanOrEqual(max);
  }
  expect(items.reduce((sum, f) => sum + f.size, 0)).toBeLessThanOrEqual(limits.total * 10 * MB);
  // Every refusal is the form's limit, under the field that met it.
  for (const [i, reply] of replies.entries()) {
    if (reply.statusCode === 201) continue;
    const field = creations[i]?.field ?? 'attachments';
    expect(reply.statusCode, reply.body).toBe(400);
    const errors = reply.json().errors as Record<string, string>;
    expect(Object.keys(errors)).toEqual([field]);
    expect(limits.messages).toContain(errors[field]);
  }
  return items;
}

describe.each([
  { replicas: 1, engine: 'the embedded store' },
  { replicas: 2, engine: 'one PostgreSQL database and folder' },
])('parallel upload creation, $replicas gateway(s) on $engine', ({ replicas }) => {
  const target: Draftable = { apps: [], headers: {} };
  let root: string;
  let drop = async () => {};

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'wbs-parallel-drafts-test-'));
    const env: Record<string, string> = {
      ...SETTINGS,
      UPLOAD_DRAFTS_DIR: root,
      RATE_LIMIT_NAMESPACE: `test-parallel-drafts-${randomUUID()}`,
    };
    if (replicas > 1) {
      // As replicas are deployed (docs/deploy.md): one folder, one database, one Redis.
      const store = await storeTestEnv('postgresql');
      Object.assign(env, store.env, { REDIS_URL: 'redis://127.0.0.1:6379' });
      drop = store.drop;
    }
    // One after the other: the second replica finds the first one's migrations done.
    for (let i = 0; i < replicas; i++) target.apps.push(await buildTestApp(env));
  }, 60_000);
  afterAll(async () => {
    for (const t of target.apps) await t.close();
    await drop();
    await rm(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    for (const t of target.apps) await t.legacy.reset();
  });

  it('fourteen parallel creations in one report draft keep its five files, one evidence and 50 MB', async () => {
    const first = target.apps[0]?.app as TestApp['app'];
    await fc.assert(
      fc.asyncProperty(burst, async (creations) => {
        const token = await openDraft(first);
        const items = await expectWithin(target, token, creations, {
          total: 5,
          perField: { evidence: 1 },
          messages: [tooMany(5), tooMany(1)],
        });
        // Names are distinct: the draft is filled as far as the rules let it, never left short.
        const of = (field: Creation['field']) => creations.filter((c) => c.field === field).length;
        expect(items.length).toBe(Math.min(5, of('attachments') + Math.min(1, of('evidence'))));
      }),
      { numRuns: 6 },
    );
    const token = await openDraft(first);
    const fourteen = Array.from(
      { length: 14 },
      (_, i): Creation => ({
        field: i % 4 === 0 ? 'evidence' : 'attachments',
        size: 10 * MB,
      }),
    );
    const limits = { total: 5, perField: { evidence: 1 }, messages: [tooMany(5), tooMany(1)] };
    expect(await expectWithin(target, token, fourteen, limits)).toHaveLength(5);
  }, 120_000);

  it("a Tambah Bukti draft keeps to its case's room and a log draft to its one file", async () => {
    const first = target.apps[0]?.app as TestApp['app'];
    const fresh = await legacyTrack(target.apps[0]?.legacy.apiUrl ?? '', baru.caseNumber, baru.password);
    const room = 5 - fresh.attachments.length;
    const evidenceDraft = await openDraftAt(first, '/api/v1/tracking/attachments/upload-drafts', {
      payload: { caseNumber: baru.caseNumber, password: baru.password },
    });
    expect(evidenceDraft.statusCode, evidenceDraft.body).toBe(201);
    const attachments = Array.from({ length: 14 }, (): Creation => ({ field: 'attachments', size: 3 * MB }));
    const tracker: Draftable = { apps: target.apps, headers: {} };
    expect(
      await expectWithin(tracker, evidenceDraft.json().token, attachments, {
        total: room,
        perField: { attachments: room },
        messages: [tooMany(5)],
      }),
    ).toHaveLength(room);

    const admin = await signInAs(first, 2);
    const handler: Draftable = { apps: target.apps, headers: browser(admin) };
    const logDraft = await openDraftAt(first, `/api/v1/cases/${fresh.caseId}/logs/upload-drafts`, {
      headers: browser(admin),
    });
    expect(logDraft.statusCode, logDraft.body).toBe(201);
    expect(
      await expectWithin(handler, logDraft.json().token, attachments, {
        total: 1,
        perField: { attachments: 1 },
        messages: [tooMany(1)],
      }),
    ).toHaveLength(1);
  }, 60_000);
});

describe('a draft filled past its limits (by a replica of an older version)', () => {
  let t: TestApp;
  let root: string;
  let pdf: Uint8Array;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'wbs-overfull-drafts-test-'));
    t = await buildTestApp({
      ...SETTINGS,
      UPLOAD_DRAFTS_DIR: root,
      RATE_LIMIT_NAMESPACE: `test-overfull-drafts-${randomUUID()}`,
    });
    pdf = await pdfBytes({ title: 'Bukti' });
  });
  afterAll(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });
  beforeEach(() => t.legacy.reset());

  /** Adds copies of the draft's first accepted file past its limits, as an unlocked writer could. */
  async function overfill(token: string, extra: number): Promise<string[]> {
    const drafts = t.app.uploads.drafts;
    const draftId = drafts.idOf(token);
    const [model] = (await drafts.files(draftId)).filter((f) => f.state === 'accepted');
    if (!model) throw new Error('no accepted file to copy');
    const ids = Array.from({ length: extra }, () => randomBytes(16).toString('hex'));
    for (const [i, id] of ids.entries()) {
      await drafts.change(draftId, (w) =>
        w.put({ ...model, id, field: 'attachments', name: `tambahan-${i}.pdf` }),
      );
    }
    return ids;
  }

  const remove = (token: string, id: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/v1/uploads/${id}`,
      headers: { ...TUS, 'upload-draft': token, ...headers },
    });

  it('is refused when filed with the form’s limit, keeps every file, and files once trimmed', async () => {
    const adminToken = await legacyToken(t.legacy.apiUrl, 'admin.kahuripan', 'Perusahaan#2026!');
    const fileCase = async (token: string) => {
      const form = await multipart(guestAnonymousFields());
      return t.app.inject({
        method: 'POST',
        url: '/api/v1/cases',
        payload: form.payload,
        headers: { ...form.headers, 'upload-draft': token },
      });
    };

    // The report wizard: five files, and two more no check saw.
    const wizard = await openDraft(t.app);
    for (const i of [0, 1, 2, 3, 4]) {
      const field = i === 0 ? 'evidence' : 'attachments';
      await uploadWhole(t.app, wizard, { field, name: `bukti-${i}.pdf`, bytes: pdf });
    }
    const extra = await overfill(wizard, 2);
    const casesBefore = await legacyCaseCount(t.legacy.apiUrl, adminToken, 1);
    const refused = await fileCase(wizard);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().errors).toEqual({ attachments: tooMany(5) });
    expect(await legacyCaseCount(t.legacy.apiUrl, adminToken, 1)).toBe(casesBefore);
    expect((await draftFiles(t.app, wizard)).json().items).toHaveLength(7);
    for (const id of extra) expect((await remove(wizard, id)).statusCode).toBe(204);
    const filed = await fileCase(wizard);
    expect(filed.statusCode, filed.body).toBe(201);
    const stored = await legacyTrack(t.legacy.apiUrl, filed.json().caseNumber, 'Pipa-Bocor-Gudang-7');
    expect(stored.attachments).toHaveLength(5);

    // An activity log: its one file, and a second one.
    const fresh = await legacyTrack(t.legacy.apiUrl, baru.caseNumber, baru.password);
    const admin = await signInAs(t.app, 2);
    const opened = await openDraftAt(t.app, `/api/v1/cases/${fresh.caseId}/logs/upload-drafts`, {
      headers: browser(admin),
    });
    const log = opened.json().token as string;
    await uploadWhole(t.app, log, { field: 'attachments', name: 'nota.pdf', bytes: pdf }, 1, browser(admin));
    const [second = ''] = await overfill(log, 1);
    const postLog = async () => {
      const body = await multipart({
        statusId: '11',
        caseLineId: '2',
        message: 'Dialihkan ke Dewan Pengawas',
      });
      return t.app.inject({
        method: 'POST',
        url: `/api/v1/cases/${fresh.caseId}/logs`,
        payload: body.payload,
        headers: { ...browser(admin), ...body.headers, 'upload-draft': log },
      });
    };
    const refusedLog = await postLog();
    expect(refusedLog.statusCode, refusedLog.body).toBe(400);
    expect(refusedLog.json().errors).toEqual({ attachment: tooMany(1) });
    expect((await legacyTrack(t.legacy.apiUrl, baru.caseNumber, baru.password)).caselogs).toHaveLength(
      fresh.caselogs.length,
    );
    expect((await remove(log, second, browser(admin))).statusCode).toBe(204);
    expect((await postLog()).statusCode).toBe(201);
    const logged = await legacyTrack(t.legacy.apiUrl, baru.caseNumber, baru.password);
    expect(logged.caselogs.at(-1)).toMatchObject({ caseLogAttachmentName: 'nota.pdf' });

    // Tambah Bukti: the room the case had, and one more.
    const room = 5 - logged.attachments.length;
    const tracker = await openDraftAt(t.app, '/api/v1/tracking/attachments/upload-drafts', {
      payload: { caseNumber: baru.caseNumber, password: baru.password },
    });
    const evidence = tracker.json().token as string;
    for (let i = 0; i < room; i++) {
      await uploadWhole(t.app, evidence, { field: 'attachments', name: `tambah-${i}.pdf`, bytes: pdf });
    }
    await overfill(evidence, 1);
    const form = await multipart({ caseNumber: baru.caseNumber, password: baru.password });
    const refusedEvidence = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking/attachments',
      payload: form.payload,
      headers: { origin: ORIGIN, ...form.headers, 'upload-draft': evidence },
    });
    expect(refusedEvidence.statusCode, refusedEvidence.body).toBe(400);
    expect(refusedEvidence.json().errors).toEqual({ attachments: tooMany(5) });
    expect((await legacyTrack(t.legacy.apiUrl, baru.caseNumber, baru.password)).attachments).toHaveLength(
      logged.attachments.length,
    );
  }, 60_000);

  it('a file removed while it is being checked stays removed, and its place is free', async () => {
    const drafts = t.app.uploads.drafts;
    const token = await openDraft(t.app);
    const created = await createUpload(t.app, token, {
      field: 'evidence',
      name: 'bukti.pdf',
      size: pdf.length,
    });
    const id = uploadIdOf(created.headers.location);
    const draftId = drafts.idOf(token);
    const record = await drafts.file(draftId, id);
    const draft = await drafts.find(token);
    if (!record || !draft) throw new Error('no record');
    // Its last byte arrived and its check began (on the bytes as they were) ...
    const copy = join(root, 'sedang-diperiksa.pdf');
    await writeFile(copy, pdf);
    // ... when Hapus removed it.
    expect((await remove(token, id)).statusCode).toBe(204);
    const scrubbing = { scrubber: t.app.uploads.scrubber, log: t.app.log, count: () => {} };
    await settleUpload(drafts, { draft, scrubbing, log: t.app.log }, record, copy);
    expect((await draftFiles(t.app, token)).json().items).toEqual([]);
    for (const i of [0, 1, 2, 3, 4]) {
      const field = i === 0 ? 'evidence' : 'attachments';
      const again = await createUpload(t.app, token, { field, name: `lagi-${i}.pdf`, size: 10 });
      expect(again.statusCode, again.body).toBe(201);
    }
  });
});
