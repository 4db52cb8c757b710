/**
 * Retention and the disposal register: every user type but the administrator, and a guest, is refused
 * on every route (and learns nothing of the register); ids outside the id range are refused; a note
 * too long or holding control or bidi characters is refused and marks nothing.
 */
import { type AttackCase, expect, json, type Tools } from '../support.ts';

const NOT_ADMIN = [
  'admin.kahuripan',
  'admin.pakuan',
  'holding',
  'analis.direksi',
  'analis.spi',
  'staff.holding',
  'staff.holding2',
  'pelapor',
];

type Probe = { method: string; path: string; json?: unknown };
const PROBES: Probe[] = [
  { method: 'GET', path: '/api/v1/retention-periods' },
  { method: 'PUT', path: '/api/v1/retention-periods/1', json: { months: 1 } },
  { method: 'DELETE', path: '/api/v1/retention-periods/1' },
  { method: 'GET', path: '/api/v1/disposals' },
  { method: 'GET', path: '/api/v1/disposals?state=destroyed' },
  { method: 'GET', path: '/api/v1/disposals/summary' },
  { method: 'POST', path: '/api/v1/disposals/1/destroyed', json: {} },
  { method: 'POST', path: '/api/v1/disposals/scan', json: {} },
  { method: 'GET', path: '/api/v1/processing-records' },
];

const BAD_IDS = ['0', '-1', '00', '1e3', '0x1', '99999999999', '1.5', '1%00', '%2e%2e', 'NaN', ' 1'];

/** The first entry of the register (after a scan now), or null when the register is empty. */
async function firstEntry(t: Tools): Promise<{ id: number; state: string } | null> {
  const scan = await t.send({ as: 'admin', method: 'POST', path: '/api/v1/disposals/scan', json: {} });
  expect(scan.status === 200 || scan.status === 409, `scan answered ${scan.status}`);
  const list = await t.send({ as: 'admin', path: '/api/v1/disposals' });
  expect(list.status === 200, `register answered ${list.status}`);
  return json<{ items: { id: number; state: string }[] }>(list).items[0] ?? null;
}

export const retentionCases: AttackCase[] = [
  {
    area: 'retention',
    name: 'every user type but the administrator is 403 and a guest 401 on every retention route',
    async run(t) {
      for (const probe of PROBES) {
        for (const as of NOT_ADMIN) {
          const reply = await t.send({ as, ...probe });
          expect(reply.status === 403, `${as} ${probe.method} ${probe.path} answered ${reply.status}`);
          expect(!/caseId|companyName|months/.test(reply.text), `${as} ${probe.path} leaked data`);
        }
        const guest = await t.send(probe);
        expect(guest.status === 401, `a guest's ${probe.method} ${probe.path} answered ${guest.status}`);
      }
      const periods = await t.send({ as: 'admin', path: '/api/v1/retention-periods' });
      expect(periods.status === 200, `the administrator's periods answered ${periods.status}`);
      const own = json<{ companies: { companyId: number; own: boolean }[] }>(periods).companies;
      expect(
        own.every((c) => !c.own),
        'a refused PUT gave a company its own period',
      );
    },
  },
  {
    area: 'retention',
    name: 'ids out of range and months out of 1..120 are refused, never a 5xx',
    async run(t) {
      for (const id of BAD_IDS) {
        for (const probe of [
          { method: 'PUT', path: `/api/v1/retention-periods/${id}`, json: { months: 6 } },
          { method: 'DELETE', path: `/api/v1/retention-periods/${id}` },
          { method: 'POST', path: `/api/v1/disposals/${id}/destroyed`, json: {} },
        ]) {
          const reply = await t.send({ as: 'admin', ...probe });
          expect(
            reply.status === 400 || reply.status === 404,
            `${probe.method} id ${id} answered ${reply.status}`,
          );
        }
      }
      for (const months of [0, -1, 121, 1e9, 1.5, '12', null, [12], { months: 12 }]) {
        const reply = await t.send({
          as: 'admin',
          method: 'PUT',
          path: '/api/v1/retention-periods/1',
          json: { months },
        });
        expect(reply.status === 400, `months ${JSON.stringify(months)} answered ${reply.status}`);
      }
      for (const query of ['state=gone', 'page=0', 'page=-1', 'size=1000', "state=waiting'--", 'page=1e3']) {
        const reply = await t.send({ as: 'admin', path: `/api/v1/disposals?${query}` });
        expect(reply.status === 400, `register ?${query} answered ${reply.status}`);
      }
    },
  },
  {
    area: 'retention',
    name: 'a note too long or holding control or bidi characters is refused and marks nothing',
    async run(t) {
      const entry = await firstEntry(t);
      const id = entry?.id ?? 1;
      for (const note of [
        'a'.repeat(501),
        'berita acara\u0000',
        'baris\u0007bunyi',
        'abc\u202Edcba',
        'nol\u200Blebar',
        'pemisah\u2028baris',
        '\u001b[31mmerah',
      ]) {
        const reply = await t.send({
          as: 'admin',
          method: 'POST',
          path: `/api/v1/disposals/${id}/destroyed`,
          json: { note },
        });
        expect(reply.status === 400, `note ${JSON.stringify(note.slice(0, 20))} answered ${reply.status}`);
      }
      if (entry && entry.state !== 'destroyed') {
        const list = await t.send({ as: 'admin', path: '/api/v1/disposals?state=destroyed' });
        const ids = json<{ items: { id: number }[] }>(list).items.map((i) => i.id);
        expect(!ids.includes(id), 'a refused note marked the entry destroyed');
      }
    },
  },
];
