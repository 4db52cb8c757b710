/**
 * Tracking: nothing tells an unknown complaint number from a wrong password (status, body, headers
 * that vary, time floor), the tracker never sees log notes, and guessing is limited.
 */
import { type AttackCase, expect, json, type Reply, type Tools } from '../support.ts';

const track = (t: Tools, caseNumber: string, password: string, address?: string) =>
  t.send({ path: '/api/v1/tracking', json: { caseNumber, password }, ...(address ? { address } : {}) });

/** The reply without what differs per request by design (request id, date). */
const comparable = (r: Reply) => {
  const { 'x-request-id': _id, date: _date, 'content-length': _len, ...headers } = r.headers;
  return JSON.stringify({ status: r.status, headers, body: r.text });
};

export const trackingCases: AttackCase[] = [
  {
    area: 'tracking',
    name: 'unknown number and wrong password: same status, headers and body',
    async run(t) {
      const unknown = await track(t, 'WBS-99999998', 'Lapor#2026!');
      const wrong = await track(t, 'WBS-10000001', 'Salah#2026!');
      expect(unknown.status === 404, `unknown number answered ${unknown.status}`);
      expect(
        comparable(unknown) === comparable(wrong),
        `they differ:\n${comparable(unknown)}\n${comparable(wrong)}`,
      );
    },
  },
  {
    area: 'tracking',
    name: 'malformed number answers like an unknown one (or a plain 400 before any look-up)',
    async run(t) {
      const odd = await track(t, "WBS-1' OR '1'='1", 'x');
      const unknown = await track(t, 'WBS-99999997', 'x');
      expect(
        odd.status === 400 || comparable(odd) === comparable(unknown),
        `answered ${odd.status} ${odd.text.slice(0, 100)}`,
      );
    },
  },
  {
    area: 'tracking',
    name: 'unknown number and wrong password both wait the failure floor',
    async run(t) {
      const unknown = await track(t, 'WBS-99999996', 'Lapor#2026!');
      const wrong = await track(t, 'WBS-10000001', 'Salah#2026!');
      // The suite's gateway runs with TRACKING_FAILURE_FLOOR_MS=300.
      expect(
        unknown.ms >= 290 && wrong.ms >= 290,
        `answered after ${Math.round(unknown.ms)} / ${Math.round(wrong.ms)} ms`,
      );
    },
  },
  {
    area: 'tracking',
    name: 'the tracker sees every log note masked and no log author',
    async run(t) {
      const reply = await track(t, 'WBS-10000002', 'Lapor#2026!');
      expect(reply.status === 200, `answered ${reply.status}`);
      const detail = json<{ logs: { message: string; noteHidden: boolean; createdBy?: unknown }[] }>(reply);
      expect(detail.logs.length > 0, 'the demo case has no logs');
      expect(
        detail.logs.every((l) => l.noteHidden && l.message === '**********' && !l.createdBy),
        'a log note or author is visible',
      );
    },
  },
  {
    area: 'tracking',
    name: 'the complaint number is never accepted in the URL',
    async run(t) {
      const reply = await t.send({ path: '/api/v1/tracking?caseNumber=WBS-10000001&password=Lapor%232026!' });
      expect(reply.status !== 200, `GET with the number in the query answered ${reply.status}`);
    },
  },
  {
    area: 'tracking',
    name: 'guessing one number is refused 429 with Retry-After and Indonesian text',
    async run(t) {
      let refused: Reply | undefined;
      for (let i = 0; i < 12 && !refused; i++) {
        const reply = await track(t, 'WBS-10000003', `Tebak#${i}-salah`);
        if (reply.status === 429) refused = reply;
      }
      expect(refused, 'twelve wrong passwords for one number were all answered');
      expect(Number(refused.headers['retry-after']) > 0, 'no Retry-After');
      expect(/coba|percobaan/i.test(refused.text), `text: ${refused.text.slice(0, 120)}`);
    },
  },
];
