/**
 * Upload limits over real sockets (only a real connection exercises Node's body handling): the 10 MB
 * boundary on both upload routes, a body that goes quiet mid-upload, the cap on concurrent spools
 * and the removal of spools a killed process left behind.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signInAs, type TestApp } from '../test/helpers.ts';
import {
  guestAnonymousFields,
  legacyCaseCount,
  legacyToken,
  legacyTrack,
  multipart,
} from '../test/uploads.ts';

const ownSpools = async () =>
  (await readdir(tmpdir())).filter((name) => name.startsWith(`wbs-upload-${process.pid}-`));

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The gateway with these settings, listening on a loopback port for the enclosing describe block. */
function listeningApp(env: Record<string, string> = {}) {
  const ctx = {} as { t: TestApp; url: string };
  beforeAll(async () => {
    ctx.t = await buildTestApp(env);
    ctx.url = await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => ctx.t.close());
  return ctx;
}

/** A PDF signature padded with spaces to exactly `size` bytes (pdf-lib refuses it: forwarded as is). */
function pdfOfSize(size: number): Buffer {
  const bytes = Buffer.alloc(size, 0x20);
  bytes.write('%PDF-1.7\n');
  return bytes;
}

/** Opens a raw connection and sends the headers and the first half of an upload, then nothing. */
async function stalledUpload(url: string, payload: Buffer, contentType: string): Promise<Socket> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.on('error', () => {});
  socket.write(
    `POST /api/v1/cases HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${url}\r\n` +
      `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`,
  );
  socket.write(payload.subarray(0, Math.floor(payload.length / 2)));
  return socket;
}

describe('the 10 MB limit over a real connection', () => {
  const ctx = listeningApp();

  const postCase = async (bytes: Buffer) => {
    const { payload, headers } = await multipart(guestAnonymousFields(), [
      { field: 'evidence', name: 'besar.pdf', bytes },
    ]);
    return fetch(`${ctx.url}/api/v1/cases`, {
      method: 'POST',
      headers: { ...headers, origin: ctx.url },
      body: new Uint8Array(payload),
    });
  };

  it('POST /cases takes exactly 10 MB and answers 10 MB + 1 byte with 413 and the size message', async () => {
    const admin = await legacyToken(ctx.t.legacy.apiUrl, 'admin', 'Admin#2026!');
    const before = await legacyCaseCount(ctx.t.legacy.apiUrl, admin, 1);
    const exact = await postCase(pdfOfSize(10_485_760));
    expect(exact.status).toBe(201);
    const over = await postCase(pdfOfSize(10_485_761));
    expect(over.status).toBe(413);
    const body = await over.json();
    expect(body.type).toMatch(/payload-too-large$/);
    expect(body.detail).toBe('Ukuran file besar.pdf melebihi 10 MB');
    expect(body.errors).toEqual({ evidence: 'Ukuran file besar.pdf melebihi 10 MB' });
    expect(await legacyCaseCount(ctx.t.legacy.apiUrl, admin, 1)).toBe(before + 1);
  });

  it('POST /cases/{id}/logs does the same for its attachment', async () => {
    const cookie = await signInAs(ctx.t.app, 2);
    const { caseId, caseCaseStatusId } = await legacyTrack(
      ctx.t.legacy.apiUrl,
      'WBS-10000002',
      'Lapor#2026!',
    );
    // A note in the case's current status: always one of the log form's choices for an open case.
    const statusId = String(caseCaseStatusId);
    const logsBefore = (await legacyTrack(ctx.t.legacy.apiUrl, 'WBS-10000002', 'Lapor#2026!')).caselogs
      .length;
    const postLog = async (bytes: Buffer) => {
      const { payload, headers } = await multipart({ statusId, message: 'Lampiran besar' }, [
        { field: 'attachment', name: 'besar.pdf', bytes },
      ]);
      return fetch(`${ctx.url}/api/v1/cases/${caseId}/logs`, {
        method: 'POST',
        headers: { ...headers, cookie, origin: ctx.url, 'sec-fetch-site': 'same-origin' },
        body: new Uint8Array(payload),
      });
    };
    const over = await postLog(pdfOfSize(10_485_761));
    expect(over.status).toBe(413);
    expect((await over.json()).detail).toBe('Ukuran file besar.pdf melebihi 10 MB');
    const exact = await postLog(pdfOfSize(10_485_760));
    expect(exact.status).toBe(201);
    const after = await legacyTrack(ctx.t.legacy.apiUrl, 'WBS-10000002', 'Lapor#2026!');
    expect(after.caselogs).toHaveLength(logsBefore + 1);
  });
});

describe('a body that goes quiet', () => {
  const ctx = listeningApp({ UPLOAD_IDLE_TIMEOUT_MS: '400' });

  it('cuts a stalled upload, removes its spool and files nothing', async () => {
    const admin = await legacyToken(ctx.t.legacy.apiUrl, 'admin', 'Admin#2026!');
    const before = await legacyCaseCount(ctx.t.legacy.apiUrl, admin, 1);
    const spoolsBefore = await ownSpools();
    const { payload, headers } = await multipart(guestAnonymousFields(), [
      { field: 'evidence', name: 'bukti.pdf', bytes: pdfOfSize(2 * 1024 * 1024) },
    ]);
    const socket = await stalledUpload(ctx.url, payload, headers['content-type'] as string);
    let closedAt = 0;
    socket.once('close', () => {
      closedAt = Date.now();
    });
    const sentAt = Date.now();
    await until(async () => (await ownSpools()).length > spoolsBefore.length, 'the spool to be created');
    await until(() => closedAt > 0, 'the server to close the connection');
    expect(closedAt - sentAt).toBeGreaterThanOrEqual(350);
    await until(async () => (await ownSpools()).length === spoolsBefore.length, 'the spool to be removed');
    expect(ctx.t.logs.some((line) => line.msg === 'upload stalled; connection closed')).toBe(true);
    expect(await legacyCaseCount(ctx.t.legacy.apiUrl, admin, 1)).toBe(before);
  });
});

describe('the spool cap', () => {
  const ctx = listeningApp({ UPLOAD_MAX_SPOOLS: '1' });

  it('answers 503 busy with Retry-After while the spools are full, and accepts again after', async () => {
    const { payload, headers } = await multipart(guestAnonymousFields(), [
      { field: 'evidence', name: 'bukti.pdf', bytes: pdfOfSize(1024 * 1024) },
    ]);
    const holder = await stalledUpload(ctx.url, payload, headers['content-type'] as string);
    await until(() => ctx.t.app.uploads.spools.active === 1, 'the first upload to hold the only spool');
    const spoolsWhileHeld = await ownSpools();
    const small = await multipart(guestAnonymousFields(), [
      { field: 'evidence', name: 'kecil.pdf', bytes: pdfOfSize(2048) },
    ]);
    const busy = await fetch(`${ctx.url}/api/v1/cases`, {
      method: 'POST',
      headers: { ...small.headers, origin: ctx.url },
      body: new Uint8Array(small.payload),
    });
    expect(busy.status).toBe(503);
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    const problem = await busy.json();
    expect(problem.type).toMatch(/\/busy$/);
    expect(problem.detail).toBe('Server sedang sibuk, silakan coba lagi sebentar lagi.');
    // Nothing of the refused request was kept: no second spool appeared.
    expect(await ownSpools()).toEqual(spoolsWhileHeld);

    holder.destroy();
    await until(() => ctx.t.app.uploads.spools.active === 0, 'the held spool to be released');
    const again = await fetch(`${ctx.url}/api/v1/cases`, {
      method: 'POST',
      headers: { ...small.headers, origin: ctx.url },
      body: new Uint8Array(small.payload),
    });
    expect(again.status).toBe(201);
  });
});

describe('spools left by a killed process', () => {
  it('are removed at start; a running process keeps its own', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const stale = join(tmpdir(), `wbs-upload-${deadPid}-stale01`);
    const live = join(tmpdir(), `wbs-upload-${process.ppid}-live01`);
    for (const dir of [stale, live]) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(join(dir, 'upload-0'), 'isi laporan yang belum dibersihkan');
    }
    const t = await buildTestApp();
    try {
      await expect(stat(stale)).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await stat(live)).isDirectory()).toBe(true);
      expect(t.logs.some((line) => line.msg === 'stale upload spools removed')).toBe(true);
    } finally {
      await t.close();
      await rm(live, { recursive: true, force: true });
    }
  });
});
