/**
 * Retention and the disposal register: every user type but the administrator, and a guest, is refused
 * on every route (and learns nothing of the register); ids outside the id range are refused; a note
 * too long or holding control or bidi characters is refused and marks nothing; what cannot be undone
 * (a shorter period, a scan, a disposal mark) asks an administrator's session whose factor is older
 * than ten minutes for a new one.
 */
import { type AttackCase, expect, json, problemType, type Reply, type Tools } from '../support.ts';
import { parts, signed } from './sessions.ts';

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

const STEP_UP_SECONDS = 600;

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
  {
    area: 'retention',
    name: "an administrator's factor used 11 minutes ago: a shorter period, Periksa sekarang and a disposal mark → 401 step-up-required, nothing changed; a longer period passes; the factor now lets them through",
    async run(t) {
      // A genuine session of the administrator with its factor's time moved back (the suite signs
      // claims as the session cases do); the same cookie with the factor now is the control.
      const cookie = await t.freshSession('admin');
      const { claims } = parts(cookie);
      const factor = claims.f as { s: string; at: number | null; m: string[]; r: number };
      const now = Math.floor(Date.now() / 1000);
      const stale = signed({ ...claims, f: { ...factor, at: now - STEP_UP_SECONDS - 60 } }, t.sessionSecret);
      const fresh = signed({ ...claims, f: { ...factor, at: now } }, t.sessionSecret);
      const periodOf = async (companyId: number) => {
        const reply = await t.send({ cookie: fresh, path: '/api/v1/retention-periods' });
        expect(reply.status === 200, `periods answered ${reply.status}`);
        const found = json<{ companies: { companyId: number; months: number; own: boolean }[] }>(
          reply,
        ).companies.find((c) => c.companyId === companyId);
        expect(found, `company ${companyId} is not listed`);
        return found;
      };
      const before = await periodOf(2);
      const asked = (reply: Reply, what: string) =>
        expect(
          reply.status === 401 && problemType(reply) === 'step-up-required',
          `${what} with a factor 11 minutes old answered ${reply.status} ${reply.text.slice(0, 80)}`,
        );
      asked(
        await t.send({
          cookie: stale,
          method: 'PUT',
          path: '/api/v1/retention-periods/2',
          json: { months: 1 },
        }),
        'a period of 1 month',
      );
      expect((await periodOf(2)).months === before.months, 'the refused period was saved');
      asked(
        await t.send({ cookie: stale, method: 'POST', path: '/api/v1/disposals/scan', json: {} }),
        'a scan',
      );
      asked(
        await t.send({ cookie: stale, method: 'POST', path: '/api/v1/disposals/1/destroyed', json: {} }),
        'a disposal mark',
      );
      // Keeping longer deletes nothing: no prompt.
      const longer = await t.send({
        cookie: stale,
        method: 'PUT',
        path: '/api/v1/retention-periods/2',
        json: { months: 120 },
      });
      expect(longer.status === 200, `a period of 120 months answered ${longer.status}`);
      // Back to the group default is shorter again: asked, then let through with the factor now.
      asked(
        await t.send({ cookie: stale, method: 'DELETE', path: '/api/v1/retention-periods/2' }),
        'the default',
      );
      const reset = await t.send({ cookie: fresh, method: 'DELETE', path: '/api/v1/retention-periods/2' });
      expect(reset.status === 200, `the default with the factor now answered ${reset.status}`);
      expect(!(await periodOf(2)).own, 'company 2 kept its own period');
      const scan = await t.send({ cookie: fresh, method: 'POST', path: '/api/v1/disposals/scan', json: {} });
      expect(
        scan.status === 200 || scan.status === 409,
        `a scan with the factor now answered ${scan.status}`,
      );
    },
  },
];
