/**
 * Upload limits over real sockets (only a real connection exercises Node's body handling): the 10 MB
 * boundary on both upload routes, a body that goes quiet mid-upload (multipart, or a resumable
 * upload's PATCH), the cap on concurrent spools and one client's share of it, and the removal of
 * spools a killed process left behind.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signInAs, type TestApp } from '../test/helpers.ts';
import { createUpload, draftFiles, head, openDraft, patch, uploadIdOf } from '../test/tus.ts';
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

/**
 * A PATCH of a resumable upload that sends its headers and `sent` of the body's bytes, then nothing.
 * `address`: the client's, through the trusted loopback proxy.
 */
async function stalledPatch(
  url: string,
  upload: { token: string; id: string; size: number; sent: Buffer },
  address?: string,
): Promise<{ socket: Socket; reply: Promise<string> }> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.on('error', () => {});
  let received = '';
  const reply = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => {
      received += String(chunk);
      resolve(received);
    });
    socket.once('close', () => resolve(received));
  });
  socket.write(
    `PATCH /api/v1/uploads/${upload.id} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${url}\r\n` +
      'Tus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\nContent-Type: application/offset+octet-stream\r\n' +
      `Upload-Draft: ${upload.token}\r\nContent-Length: ${upload.size}\r\n` +
      (address ? `X-Forwarded-For: ${address}\r\n` : '') +
      '\r\n',
  );
  socket.write(upload.sent);
  return { socket, reply };
}

/** A drafts folder of the enclosing describe block's own, removed after it. */
function ownDraftsDir(): string {
  const dir = join(tmpdir(), `wbs-limits-drafts-${randomUUID()}`);
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('a resumable upload whose PATCH goes quiet', () => {
  const ctx = listeningApp({ UPLOAD_IDLE_TIMEOUT_MS: '400', UPLOAD_DRAFTS_DIR: ownDraftsDir() });

  it('is cut after the idle timeout, gives its slot back and keeps its bytes for the resumed upload', async () => {
    const pdf = pdfOfSize(64 * 1024);
    const token = await openDraft(ctx.t.app);
    const created = await createUpload(ctx.t.app, token, {
      field: 'evidence',
      name: 'bukti.pdf',
      size: pdf.length,
    });
    const id = uploadIdOf(created.headers.location);
    const logsBefore = ctx.t.logs.length;
    const sentAt = Date.now();
    const { socket } = await stalledPatch(ctx.url, { token, id, size: pdf.length, sent: pdf.subarray(0, 9) });
    await until(() => ctx.t.app.uploads.spools.active === 1, 'the PATCH to hold a slot');
    const closedAt = await new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    expect(closedAt - sentAt).toBeGreaterThanOrEqual(350);
    await until(() => ctx.t.app.uploads.spools.active === 0, 'the slot to come back');
    const lines = ctx.t.logs.slice(logsBefore);
    expect(lines.some((line) => line.msg === 'upload stalled; connection closed')).toBe(true);
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    // Nothing the reporter sent is lost: the upload goes on from the nine bytes the gateway holds.
    const offset = Number((await head(ctx.t.app, token, id)).headers['upload-offset']);
    expect(offset).toBe(9);
    expect((await patch(ctx.t.app, token, id, offset, pdf.subarray(offset))).statusCode).toBe(204);
    expect((await draftFiles(ctx.t.app, token)).json().items[0]).toMatchObject({ state: 'accepted' });
  });
});

describe("one client's share of the upload slots", () => {
  // The defaults: 24 slots, 6 of them per client.
  const ctx = listeningApp({ TRUST_PROXY: '127.0.0.1', UPLOAD_DRAFTS_DIR: ownDraftsDir() });

  it("twenty-six stalled PATCHes from one client hold six slots; another reporter's report is filed", async () => {
    const attacker = '10.9.8.7';
    const from = { 'x-forwarded-for': attacker };
    const uploads: { token: string; id: string }[] = [];
    for (let d = 0; uploads.length < 26; d++) {
      const token = await openDraft(ctx.t.app);
      for (const [i, field] of [
        'evidence',
        'attachments',
        'attachments',
        'attachments',
        'attachments',
      ].entries()) {
        if (uploads.length === 26) break;
        const created = await createUpload(
          ctx.t.app,
          token,
          { field, name: `b${d}-${i}.pdf`, size: 4096 },
          from,
        );
        expect(created.statusCode, created.body).toBe(201);
        uploads.push({ token, id: uploadIdOf(created.headers.location) });
      }
    }
    const stalled = await Promise.all(
      uploads.map((u) =>
        stalledPatch(ctx.url, { ...u, size: 4096, sent: Buffer.from('%PDF-1.7\n') }, attacker),
      ),
    );
    try {
      const answers: string[] = [];
      for (const s of stalled) void s.reply.then((text) => answers.push(text));
      // Six hold a slot and hear nothing; every other one is answered at once.
      await until(() => answers.length === 20, 'the PATCHes past the share to be answered');
      expect(answers.every((text) => text.startsWith('HTTP/1.1 503'))).toBe(true);
      expect(answers[0]).toMatch(/retry-after: 5/i);
      expect(answers[0]).toContain('Terlalu banyak unggahan Anda yang sedang berjalan bersamaan');
      expect(ctx.t.app.uploads.spools.active).toBe(6);

      const report = async (address: string) => {
        const { payload, headers } = await multipart(guestAnonymousFields(), [
          { field: 'evidence', name: 'bukti.pdf', bytes: pdfOfSize(2048) },
        ]);
        return fetch(`${ctx.url}/api/v1/cases`, {
          method: 'POST',
          headers: { ...headers, origin: ctx.url, 'x-forwarded-for': address },
          body: new Uint8Array(payload),
        });
      };
      expect((await report('10.1.2.3')).status).toBe(201);
      const own = await report(attacker);
      expect(own.status).toBe(503);
      expect((await own.json()).detail).toBe(
        'Terlalu banyak unggahan Anda yang sedang berjalan bersamaan; silakan coba lagi sebentar lagi.',
      );
    } finally {
      for (const s of stalled) s.socket.destroy();
    }
    await until(() => ctx.t.app.uploads.spools.active === 0, 'every slot to come back');
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
