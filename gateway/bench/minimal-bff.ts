/**
 * The floor benchmark's second yardstick: the least any BFF that transforms the legacy's replies must
 * do, with nothing else. It takes the same request as the passthrough (legacy path and body, to
 * UPSTREAM_URL), sends it on with undici, reads and parses the JSON, and answers:
 * - a case table (`data` rows with `caseId`): the rows mapped by the gateway's own presenter and
 *   serialised by the case list's own response schema (fast-json-stringify), as the gateway does;
 * - any other reply: its `data` parsed and serialised again.
 * No session, policy, validation of the legacy reply, scope, clocks, logging or metrics: the gap
 * between this and the passthrough is what parsing, mapping and serialising cost in Node, and the
 * gap between the gateway and this is what the gateway's features cost.
 */
import { caseListReply } from '@wbs/shared/api/cases';
import Fastify from 'fastify';
import { Pool } from 'undici';
import type { LegacyCaseRow } from '../src/legacy/case-schemas.ts';
import { presentCaseListRow } from '../src/presenters/cases.ts';
import { routeSchema } from '../src/schema.ts';

const upstream = process.env.UPSTREAM_URL;
if (!upstream) throw new Error('UPSTREAM_URL is required');
const pool = new Pool(new URL(upstream).origin, { connections: 64, pipelining: 1 });
const listReplySchema = (
  routeSchema({ summary: 'bench', tags: [], response: { 200: caseListReply } }).response as Record<
    string,
    Record<string, unknown>
  >
)['200']!;

type Envelope = { data?: unknown; recordsFiltered?: number };

async function legacyJson(method: string, url: string, body: string | undefined): Promise<Envelope> {
  const reply = await pool.request({
    method: method as 'GET',
    path: url,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body,
  });
  return JSON.parse(await reply.body.text()) as Envelope;
}

const isCaseTable = (data: unknown): data is LegacyCaseRow[] =>
  Array.isArray(data) && (data.length === 0 || 'caseId' in (data[0] as object));

const app = Fastify({ logger: false });
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
app.all('/*', async (request, reply) => {
  const body = typeof request.body === 'string' ? request.body : undefined;
  const legacy = await legacyJson(request.method, request.url, body);
  reply.type('application/json');
  if (!isCaseTable(legacy.data)) return JSON.stringify(legacy.data ?? null);
  const page = {
    items: legacy.data.map((row) => presentCaseListRow(row, null, null)),
    total: legacy.recordsFiltered ?? legacy.data.length,
    page: 1,
    pageSize: 25,
  };
  // Compiled once per schema object and cached by Fastify: the gateway's own serialiser of the list.
  return reply.serializeInput(page, listReplySchema);
});
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
// Exits on SIGTERM through process.exit, so a --cpu-prof profile is written (BENCH_PROFILE_DIR).
process.on('SIGTERM', () => process.exit(0));
