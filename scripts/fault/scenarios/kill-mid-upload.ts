/**
 * `kill -9` of the gateway while a guest's upload is half-way in: nothing reaches the legacy (no
 * half-filed report), the restarted gateway leaves no spool folder behind, and the client's retry
 * with the same Idempotency-Key files the report exactly once.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { call, sleep } from '../../support/http.ts';
import { legacyCases } from '../../support/legacy-sim.ts';
import { guestReportFields, multipartBytes, storedZip } from '../../support/report-form.ts';
import type { FaultContext } from '../context.ts';

const FILE_BYTES = 6 * 1024 * 1024;

async function spoolFolders(dir: string): Promise<{ name: string; bytes: number }[]> {
  const names = (await readdir(dir)).filter((name) => name.startsWith('wbs-upload-'));
  return Promise.all(
    names.map(async (name) => {
      let bytes = 0;
      for (const file of await readdir(join(dir, name)).catch(() => [])) {
        bytes += (await stat(join(dir, name, file)).catch(() => ({ size: 0 }))).size;
      }
      return { name, bytes };
    }),
  );
}

export async function killMidUpload(ctx: FaultContext): Promise<void> {
  const { report, system } = ctx;
  const area = 'kill-9';
  const marker = `[fault ${ctx.runId} kill-9] Laporan yang unggahannya terputus.`;
  const key = `fault-${ctx.runId}-kill9`;
  const { contentType, bytes } = multipartBytes(guestReportFields(marker, 'Uji-Kill9#2026', ctx.categoryId), [
    { field: 'evidence', name: 'bukti.zip', type: 'application/zip', bytes: storedZip(FILE_BYTES) },
  ]);
  const headers = {
    'content-type': contentType,
    'idempotency-key': key,
    'x-forwarded-for': ctx.clientAddress(9000),
  };

  // Send the first half, then hold the rest back until the gateway has been killed.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const half = Math.floor(bytes.length / 2);
  async function* slowBody() {
    for (let offset = 0; offset < half; offset += 256 * 1024) {
      yield bytes.subarray(offset, Math.min(offset + 256 * 1024, half));
    }
    await held;
    yield bytes.subarray(half);
  }
  const interrupted = call(ctx.baseUrl, {
    path: '/api/v1/cases',
    body: slowBody(),
    headers,
    timeoutMs: 20_000,
  }).then(
    (reply) => `HTTP ${reply.status}`,
    (error: { code?: string }) => error.code ?? 'transport error',
  );

  let spooled = 0;
  for (let i = 0; i < 50 && spooled < FILE_BYTES / 4; i++) {
    await sleep(100);
    spooled = Math.max(0, ...(await spoolFolders(ctx.gatewayTmp)).map((s) => s.bytes));
  }
  report.check(
    area,
    'the upload is being spooled when the gateway is killed',
    spooled > 0,
    `${spooled} bytes on disk`,
  );
  const exit = await system.stopGateway('SIGKILL');
  release();
  report.check(area, 'gateway killed with SIGKILL', exit.signal === 'SIGKILL', `signal ${exit.signal}`);
  report.figure('the interrupted client saw', await interrupted);

  const filedBefore = (await legacyCases(ctx.simDataDir)).filter((c) => c.caseWhat === marker).length;
  report.check(
    area,
    'nothing of the interrupted report reached the legacy',
    filedBefore === 0,
    `${filedBefore} cases`,
  );

  await system.restartGateway();
  const leftover = await spoolFolders(ctx.gatewayTmp);
  report.check(
    area,
    'no spool folder left after restart',
    leftover.length === 0,
    `${leftover.length} wbs-upload-* folders`,
  );

  const retry = () => call(ctx.baseUrl, { path: '/api/v1/cases', body: bytes, headers, timeoutMs: 30_000 });
  const first = await retry();
  const second = await retry();
  const numberOf = (text: string) => (JSON.parse(text) as { caseNumber?: string }).caseNumber;
  report.check(
    area,
    'the retry with the same key after restart files the report (201)',
    first.status === 201,
    `HTTP ${first.status} ${first.status === 201 ? '' : first.text.slice(0, 150)}`,
  );
  report.check(
    area,
    'a second retry answers the same number',
    second.status === 201 && numberOf(second.text) === numberOf(first.text),
    `HTTP ${second.status}`,
  );
  const filed = (await legacyCases(ctx.simDataDir)).filter((c) => c.caseWhat === marker).length;
  report.figure('cases at the legacy for the interrupted report', filed);
  report.check(area, 'the report is filed exactly once', filed === 1, `${filed}`);
  const afterRetry = await spoolFolders(ctx.gatewayTmp);
  report.check(
    area,
    'no spool folder left after the retries',
    afterRetry.length === 0,
    `${afterRetry.length}`,
  );
}
