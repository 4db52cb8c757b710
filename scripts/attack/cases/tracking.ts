/**
 * Tracking: nothing tells an unknown complaint number from a wrong password (status, body, headers
 * that vary, time floor), the tracker never sees log notes, and guessing is limited — failures only:
 * the reporter's own parallel calls are never refused, parallel guesses get no further
 * (docs/adr/0002-tracking-attempt-limits.md). A new case password must resist guessing, and continued
 * guessing of one number lengthens its back-off.
 */
import {
  type AttackCase,
  caseNumberOf,
  expect,
  fileReport,
  GUEST_PASSWORD,
  json,
  type Reply,
  type Tools,
} from '../support.ts';

const track = (t: Tools, caseNumber: string, password: string, address?: string) =>
  t.send({ path: '/api/v1/tracking', json: { caseNumber, password }, ...(address ? { address } : {}) });

/** What the tracked view asks for at once: the case, the conversation and the identity history. */
const TRACKER_PATHS = [
  '/api/v1/tracking',
  '/api/v1/tracking/conversation',
  '/api/v1/tracking/identity-access',
];

const statuses = (replies: Reply[]) => replies.map((r) => r.status).join(' ');

/** The reply without what differs per request by design (request id, date). */
const comparable = (r: Reply) => {
  const { 'x-request-id': _id, date: _date, 'content-length': _len, ...headers } = r.headers;
  return JSON.stringify({ status: r.status, headers, body: r.text });
};

const weakPassword = (password: string): AttackCase => ({
  area: 'tracking',
  name: `case password ${JSON.stringify(password)} is refused with a field message`,
  async run(t) {
    const reply = await fileReport(t, { fields: { password, confirmPassword: password } });
    expect(reply.status === 400, `answered ${reply.status}`);
    const errors = json<{ errors?: Record<string, string> }>(reply).errors ?? {};
    expect(errors.password, `no field error on password: ${reply.text.slice(0, 160)}`);
  },
});

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
  {
    area: 'tracking',
    name: 'parallel calls with the right password on one case are never refused (failures count, not calls)',
    async run(t) {
      const number = caseNumberOf(await fileReport(t));
      const address = t.nextAddress();
      // Twice the number's free failures and more, all at once from one browser, twice over.
      for (let round = 0; round < 2; round++) {
        const replies = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            t.send({
              path: TRACKER_PATHS[i % TRACKER_PATHS.length]!,
              json: { caseNumber: number, password: GUEST_PASSWORD },
              address,
            }),
          ),
        );
        expect(
          replies.every((r) => r.status === 200),
          `round ${round + 1}: ${statuses(replies)}`,
        );
      }
    },
  },
  {
    area: 'tracking',
    name: 'a burst of 30 parallel wrong guesses at one case: 5 answered, the rest 429 with Retry-After',
    async run(t) {
      const number = caseNumberOf(await fileReport(t));
      const replies = await Promise.all(
        Array.from({ length: 30 }, (_, i) => track(t, number, `Tebak#${i}-paralel`)),
      );
      const answered = replies.filter((r) => r.status === 404);
      const refused = replies.filter((r) => r.status === 429);
      // The suite's gateway runs with the default 5 free failures per number.
      expect(answered.length === 5 && refused.length === 25, `statuses: ${statuses(replies)}`);
      expect(
        refused.every((r) => Number(r.headers['retry-after']) > 0 && /percobaan/.test(r.text)),
        'a refusal without Retry-After or its Indonesian text',
      );
      // The back-off holds for everyone, the right password too.
      const owner = await track(t, number, GUEST_PASSWORD);
      expect(owner.status === 429, `the right password right after the burst answered ${owner.status}`);
    },
  },
  weakPassword('12345678'),
  weakPassword('password'),
  weakPassword('aaaaaaaa'),
  {
    area: 'tracking',
    last: true,
    name: 'continued guessing of one number lengthens the back-off',
    async run(t) {
      // The suite's gateway runs with a 1 s base (TRACKING_BACKOFF_BASE_SECONDS): each guess admitted
      // after waiting out the last refusal must leave a longer wait than the one before.
      const waits: number[] = [];
      let admittedSinceRefusal = true;
      for (let i = 0; waits.length < 3 && i < 40; i++) {
        const reply = await t.send({
          path: '/api/v1/tracking',
          json: { caseNumber: 'WBS-10000001', password: `Tebak#${i}` },
        });
        if (reply.status !== 429) {
          admittedSinceRefusal = true;
          continue;
        }
        const seconds = Number(reply.headers['retry-after']);
        if (admittedSinceRefusal) waits.push(seconds);
        admittedSinceRefusal = false;
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 50));
      }
      expect(waits.length === 3, `only ${waits.length} refusals after admitted guesses`);
      expect(
        waits.every((wait, i) => i === 0 || wait > waits[i - 1]!),
        `Retry-After after each admitted guess went ${waits.join(' → ')}`,
      );
    },
  },
];
