/**
 * A reporter whose connection drops mid-upload (closed tab, lost signal) leaves no trace behind: no
 * case at the legacy, no spooled file on disk, and no internal-error line for ops to chase. Real
 * sockets, because only a real hang-up exercises the parser's abort path.
 */
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, ORIGIN, signInAs, type TestApp } from '../test/helpers.ts';
import { guestAnonymousFields, legacyCaseCount, legacyToken, multipart, pdfBytes } from '../test/uploads.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => t.close());

const spools = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('wbs-upload-'));

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('an upload cut off by the client', () => {
  it('creates nothing, removes its spool and is not logged as an internal error', async () => {
    const admin = await legacyToken(t.legacy.apiUrl, 'admin', 'Admin#2026!');
    const casesBefore = await legacyCaseCount(t.legacy.apiUrl, admin, 1);
    const spoolsBefore = await spools();
    const evidence = await pdfBytes();
    const big = new Uint8Array(2 * 1024 * 1024).fill(0x20);
    const { payload, headers } = await multipart(guestAnonymousFields(), [
      { field: 'evidence', name: 'bukti.pdf', bytes: evidence, type: 'application/pdf' },
      { field: 'attachments', name: 'lampiran.pdf', bytes: Buffer.concat([Buffer.from(evidence), big]) },
    ]);
    const logsBefore = t.logs.length;

    // Send the headers and about half of the body, then hang up.
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/cases HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
        `Content-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    socket.write(payload.subarray(0, Math.floor(payload.length / 2)));
    await until(async () => (await spools()).length > spoolsBefore.length, 'the spool to be created');
    socket.destroy();

    // No response line follows: Fastify runs no onResponse hook for a socket that is gone.
    await until(
      () => t.logs.slice(logsBefore).some((line) => line.msg === 'request refused'),
      'the request to be refused',
    );
    await until(async () => (await spools()).length === spoolsBefore.length, 'the spool to be removed');
    const lines = t.logs.slice(logsBefore);
    expect(lines.filter((line) => (line.level as number) >= 50)).toEqual([]);
    expect(lines.find((line) => line.msg === 'request refused')).toMatchObject({ problem: 'bad-request' });
    expect(await legacyCaseCount(t.legacy.apiUrl, admin, 1)).toBe(casesBefore);
  });
});

/** Both kinds of upload: a guest's report, and a handler's log entry, which first waits for the legacy
 * (the case's scope) before its body is read: the longest window for a hang-up. */
const UPLOADS = [
  {
    kind: "a guest's report",
    url: '/api/v1/cases',
    cookie: async () => null,
    form: async () =>
      multipart(guestAnonymousFields(), [
        { field: 'evidence', name: 'bukti.pdf', bytes: await pdfBytes(), type: 'application/pdf' },
      ]),
  },
  {
    kind: "a handler's log entry",
    url: '/api/v1/cases/1/logs',
    cookie: () => signInAs(t.app, 2),
    form: () => multipart({ statusId: '11', caseLineId: '2', message: 'Diteruskan ke Jalur Direksi' }),
  },
];

describe.each(UPLOADS)('a client that hangs up before the body of $kind is read', (upload) => {
  // A slot held by a hung-up client is given back by the idle timeout (about 10 s): room for a loaded
  // machine on top of it.
  it('gives its spool slot back, so the next upload is not refused as busy', {
    timeout: 60_000,
  }, async () => {
    const cookie = await upload.cookie();
    const { payload, headers } = await upload.form();
    const head =
      `POST ${upload.url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\n` +
      (cookie ? `Cookie: ${cookie}\r\n` : '') +
      `Content-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`;
    // The whole request, then the client's side of the connection shut at once (FIN): Node's server
    // ends such a request before the route has read a byte of its body. More hang-ups than slots.
    const hangUps = t.app.config.uploads.maxSpools * 3;
    const logsBefore = t.logs.length;
    await Promise.all(
      Array.from(
        { length: hangUps },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect(port, '127.0.0.1', () =>
              socket.end(Buffer.concat([Buffer.from(head), payload])),
            );
            socket.on('error', () => resolve());
            socket.on('close', () => resolve());
            socket.resume();
          }),
      ),
    );
    await until(() => t.app.uploads.spools.active === 0, 'every spool slot to be given back');
    // What ops watch for a leak: the level of uploads in progress is back at 0.
    expect(await t.app.telemetry.registry.metrics()).toMatch(/^wbs_upload_spools_active 0$/m);
    // A hang-up is the client's doing: refused, never an internal error for ops to chase. (Those sent
    // while every slot was taken are answered 503 `busy`, which ops do see: a capacity limit.)
    const lines = t.logs.slice(logsBefore);
    expect(lines.filter((line) => (line.level as number) >= 50 && line.problem !== 'busy')).toEqual([]);
    expect(lines.some((line) => line.msg === 'request refused' && line.problem === 'bad-request')).toBe(true);

    const reply = await t.app.inject({
      method: 'POST',
      url: upload.url,
      headers: { ...headers, origin: ORIGIN, ...(cookie ? { cookie } : {}) },
      payload,
    });
    expect(reply.statusCode, reply.body).toBe(201);
  });
});
