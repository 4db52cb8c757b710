/**
 * Fuzzing the upload pipeline: thousands of damaged ZIP/Office, PDF, JPEG, PNG and GIF files (seeded
 * fast-check mutations of valid files: truncations, wrong sizes and offsets, broken chunk lengths,
 * spliced bytes) plus hand-made hostile ones (bombs, deep nesting, entries inflating past their
 * declared size). Every one must get an answer — scrubbed, forwarded unchanged
 * (docs/product/reporting.md#metadata-scrubbing) or
 * refused with an Indonesian field error — and the process must stay up and keep answering.
 *
 * Two levels: the content check and scrub steps every upload runs (file-type, then the worker pool),
 * for the bulk of the cases; and whole requests through `fastify.inject` for the hostile files and a
 * sample of mutations. Reproduce a failure with the seed fast-check prints: FUZZ_SEED=… (and
 * FUZZ_RUNS to change the count).
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { fileTypeFromFile } from 'file-type';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiProblem } from '../errors.ts';
import { browser, buildTestApp, signInAs, type TestApp } from '../test/helpers.ts';
import {
  FIELD_OFFSETS,
  hostileCases,
  INTERESTING_VALUES,
  type Mutation,
  mutate,
  SIGNATURES,
} from '../test/hostile-files.ts';
import { incrementalPdf } from '../test/pdf-revisions.ts';
import {
  docxBytes,
  guestAnonymousFields,
  jpegWithGps,
  legacyTrack,
  multipart,
  pdfBytes,
  pngBytes,
} from '../test/uploads.ts';
import { type AttachmentExtension, contentMatches } from './policy.ts';
import { createScrubber, type Scrubber } from './scrub.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

type Seed = { ext: AttachmentExtension; bytes: Buffer };
let seeds: Seed[];
let dir: string;
beforeAll(async () => {
  const gif = await sharp({ create: { width: 12, height: 12, channels: 3, background: '#3366cc' } })
    .gif()
    .toBuffer();
  seeds = [
    { ext: 'pdf', bytes: Buffer.from(await pdfBytes({ author: 'Budi', title: 'Laporan' })) },
    { ext: 'pdf', bytes: await incrementalPdf('Budi Santoso') },
    { ext: 'docx', bytes: Buffer.from(await docxBytes('Budi Santoso')) },
    { ext: 'jpg', bytes: Buffer.from(await jpegWithGps()) },
    { ext: 'png', bytes: Buffer.from(await pngBytes()) },
    { ext: 'gif', bytes: gif },
  ];
  dir = await mkdtemp(join(tmpdir(), 'wbs-fuzz-test-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('byte' as const), at: fc.nat(), value: fc.nat({ max: 255 }) }),
  fc.record({ op: fc.constant('u16' as const), at: fc.nat(), value: fc.constantFrom(...INTERESTING_VALUES) }),
  fc.record({ op: fc.constant('u32' as const), at: fc.nat(), value: fc.constantFrom(...INTERESTING_VALUES) }),
  fc.record({
    op: fc.constant('field' as const),
    signature: fc.nat({ max: SIGNATURES.length - 1 }),
    occurrence: fc.nat(),
    field: fc.constantFrom(...FIELD_OFFSETS),
    value: fc.constantFrom(...INTERESTING_VALUES),
  }),
  fc.record({
    op: fc.constant('splice' as const),
    from: fc.nat(),
    to: fc.nat(),
    length: fc.nat({ max: 4096 }),
  }),
);
const caseArb = fc.record({
  seed: fc.nat(),
  mutations: fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
});

/** What the upload pipeline does with one file after spooling: content check, then scrub. */
async function checkAndScrub(scrubber: Scrubber, ext: AttachmentExtension, path: string, size: number) {
  const detected = (await fileTypeFromFile(path))?.ext;
  if (!contentMatches(ext, detected)) return 'mismatch';
  const file = {
    field: 'evidence',
    name: `bukti.${ext}`,
    ext,
    detected: detected as string,
    path,
    size,
    sha256: '',
  };
  try {
    const out = await scrubber.scrubFile(file, pino({ level: 'silent' }));
    return out.path === path ? 'forwarded' : 'scrubbed';
  } catch (error) {
    if (error instanceof ApiProblem && error.type === 'validation') return 'refused';
    throw error;
  }
}

describe('fuzzed uploads', () => {
  it(`answers every one of ${RUNS} mutated files: scrubbed, forwarded or refused, never a crash`, async () => {
    const scrubber = createScrubber({
      threads: 2,
      cpuMs: 5_000,
      timeoutMs: 120_000,
      memoryMb: 128,
      maxWaiting: 100,
    });
    const outcomes: Record<string, number> = {};
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(caseArb, async ({ seed, mutations }) => {
          const { ext, bytes } = seeds[seed % seeds.length] as Seed;
          const mutated = mutate(bytes, mutations);
          const path = join(dir, `case-${n++}`);
          await writeFile(path, mutated);
          const outcome = await checkAndScrub(scrubber, ext, path, mutated.length);
          outcomes[`${ext}:${outcome}`] = (outcomes[`${ext}:${outcome}`] ?? 0) + 1;
          await rm(path, { force: true });
          await rm(`${path}.scrubbed`, { force: true });
        }),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) },
      );
    } finally {
      await scrubber.close();
    }
    console.log(`fuzz outcomes over ${RUNS} cases:`, outcomes);
    // The corpus reached the scrubbers, not only the content check.
    expect(Object.keys(outcomes).filter((key) => !key.endsWith(':mismatch')).length).toBeGreaterThan(6);
  }, 120_000);
});

describe('hostile and fuzzed files through the upload route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ SCRUB_CPU_MS: '5000', SCRUB_MEMORY_MB: '128' });
  });
  afterAll(async () => t.close());

  const upload = async (ext: string, bytes: Buffer) => {
    const { payload, headers } = await multipart(guestAnonymousFields(), [
      { field: 'evidence', name: `bukti.${ext}`, bytes },
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/cases',
      payload,
      headers: { ...headers, origin: 'http://localhost' },
    });
  };
  const ownSpools = async () =>
    (await readdir(tmpdir())).filter((name) => name.startsWith(`wbs-upload-${process.pid}-`));

  it('answers each hostile file with 201 or a 400 field error in Indonesian, and stays up', async () => {
    const spoolsBefore = await ownSpools();
    for (const hostile of await hostileCases()) {
      const res = await upload(hostile.ext, hostile.bytes);
      expect([201, 400], hostile.what).toContain(res.statusCode);
      if (res.statusCode === 400) {
        expect(res.json().errors.evidence, hostile.what).toMatch(/bukti\.\w+ (tidak|terlalu)/);
      }
    }
    expect(t.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(await ownSpools()).toEqual(spoolsBefore);
  }, 60_000);

  it('answers the reported damaged .docx on the activity-log route too (same pipeline)', async () => {
    const [reported] = await hostileCases();
    if (!reported) throw new Error('no hostile cases');
    const cookie = await signInAs(t.app, 2);
    const { caseId, caseCaseStatusId } = await legacyTrack(t.legacy.apiUrl, 'WBS-10000002', 'Lapor#2026!');
    // A note in the case's current status: always one of the log form's choices for an open case.
    const statusId = String(caseCaseStatusId);
    const { payload, headers } = await multipart({ statusId, message: 'Lampiran rusak' }, [
      { field: 'attachment', name: 'rusak.docx', bytes: reported.bytes },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/cases/${caseId}/logs`,
      payload,
      headers: { ...browser(cookie), ...headers },
    });
    // Forwarded unchanged (docs/product/reporting.md#metadata-scrubbing): the zip reader refused it, and the
    // process is still here.
    expect(res.statusCode).toBe(201);
    expect(t.logs.some((line) => line.msg === 'metadata not scrubbed' && line.scrub === 'office')).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('answers a sample of mutated files through the whole request', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ seed, mutations }) => {
        const { ext, bytes } = seeds[seed % seeds.length] as Seed;
        const res = await upload(ext, mutate(bytes, mutations));
        expect([201, 400]).toContain(res.statusCode);
        expect(res.headers['content-type']).toMatch(/json/);
      }),
      { numRuns: Math.ceil(RUNS / 20), ...(SEED === undefined ? {} : { seed: SEED }) },
    );
    expect(t.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
  }, 60_000);
});
