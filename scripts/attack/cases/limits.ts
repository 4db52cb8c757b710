/**
 * Limits: a burst of reports from one client is cut with 429, stalled uploads meet the spool cap
 * (503 `busy`) and one client's stalled resumable uploads only its share of it, and sign-in slows an
 * attacker without locking the user out or telling by time which usernames exist; the
 * current-password check of PUT /password is limited like a sign-in.
 */
import { type AttackCase, changePassword, expect, fileReport, problemType, type Reply } from '../support.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export const limitCases: AttackCase[] = [
  {
    area: 'limits',
    name: '25 reports from one client in a burst: some refused 429 rate-limited with Retry-After',
    async run(t) {
      const address = t.nextAddress();
      const replies = await Promise.all(Array.from({ length: 25 }, () => fileReport(t, { address })));
      const refused = replies.find((r) => r.status === 429);
      expect(refused, `all answered: ${[...new Set(replies.map((r) => r.status))].join(',')}`);
      expect(
        problemType(refused) === 'rate-limited' && Number(refused.headers['retry-after']) > 0,
        'not rate-limited with Retry-After',
      );
    },
  },
  {
    area: 'limits',
    name: 'concurrent stalled uploads hit the spool cap: 503 busy with Retry-After',
    async run(t) {
      const stalled: AbortController[] = [];
      const replies: Promise<Reply | null>[] = [];
      try {
        for (let i = 0; i < 40; i++) {
          const abort = new AbortController();
          stalled.push(abort);
          const boundary = 'stall';
          async function* body() {
            yield Buffer.from(
              `--${boundary}\r\ncontent-disposition: form-data; name="evidence"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4\n`,
            );
            await new Promise((resolve) => abort.signal.addEventListener('abort', resolve));
          }
          replies.push(
            t
              .send({
                path: '/api/v1/cases',
                body: body(),
                headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
              })
              .catch(() => null),
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const extra = await fileReport(t);
        const busy = extra.status === 503 ? extra : undefined;
        expect(busy, `a 41st upload answered ${extra.status}`);
        expect(
          problemType(busy) === 'busy' && Number(busy.headers['retry-after']) > 0,
          `503 ${problemType(busy)} without Retry-After`,
        );
      } finally {
        for (const a of stalled) a.abort();
        await Promise.all(replies);
      }
    },
  },
  {
    area: 'limits',
    name: "26 stalled resumable uploads from one client hold only its share of the slots: another reporter's report is filed",
    async run(t) {
      const attacker = t.nextAddress();
      const tus = { 'tus-resumable': '1.0.0' };
      const meta = (name: string, field: string) =>
        `filename ${Buffer.from(name).toString('base64')},field ${Buffer.from(field).toString('base64')}`;
      const uploads: { token: string; id: string }[] = [];
      for (let d = 0; uploads.length < 26; d++) {
        const opened = await t.send({ method: 'POST', path: '/api/v1/upload-drafts', address: attacker });
        expect(opened.status === 201, `draft: ${opened.status}`);
        const { token } = JSON.parse(opened.text) as { token: string };
        for (let i = 0; i < 5 && uploads.length < 26; i++) {
          const created = await t.send({
            method: 'POST',
            path: '/api/v1/uploads',
            address: attacker,
            headers: {
              ...tus,
              'upload-draft': token,
              'upload-length': '4096',
              'upload-metadata': meta(`b${d}-${i}.pdf`, i === 0 ? 'evidence' : 'attachments'),
            },
          });
          expect(created.status === 201, `creation: ${created.status}`);
          uploads.push({ token, id: (created.headers.location ?? '').split('/').pop() ?? '' });
        }
      }
      // Each PATCH sends nine bytes of its 4 KB, then nothing.
      const stall = new AbortController();
      const answered: Reply[] = [];
      const patches = uploads.map(({ token, id }) => {
        async function* body() {
          yield Buffer.from('%PDF-1.7\n');
          await new Promise((resolve) => stall.signal.addEventListener('abort', resolve));
        }
        return t
          .send({
            method: 'PATCH',
            path: `/api/v1/uploads/${id}`,
            address: attacker,
            headers: {
              ...tus,
              'upload-draft': token,
              'upload-offset': '0',
              'content-type': 'application/offset+octet-stream',
              'content-length': '4096',
            },
            body: body(),
          })
          .then((reply) => answered.push(reply))
          .catch(() => null);
      });
      try {
        for (let i = 0; i < 60 && answered.length < 20; i++) await new Promise((r) => setTimeout(r, 50));
        expect(answered.length >= 20, `${answered.length} of 26 stalled PATCHes answered`);
        const refusal = answered[0];
        expect(
          answered.every(
            (r) => r.status === 503 && problemType(r) === 'busy' && Number(r.headers['retry-after']) > 0,
          ),
          `answered ${[...new Set(answered.map((r) => r.status))].join(',')}`,
        );
        expect(/unggahan Anda/.test(refusal?.text ?? ''), `refusal says ${refusal?.text.slice(0, 160)}`);
        const other = await fileReport(t);
        expect(other.status === 201, `another reporter's report answered ${other.status}`);
      } finally {
        stall.abort();
        await Promise.all(patches);
      }
    },
  },
  {
    area: 'limits',
    name: 'twelve wrong passwords from an attacker do not lock the user out',
    async run(t) {
      const attacker = t.nextAddress();
      for (let i = 0; i < 12; i++) {
        await t.send({
          path: '/api/v1/session',
          json: { username: 'analis.direksi', password: `Salah#${i}` },
          address: attacker,
        });
      }
      const user = await t.send({
        path: '/api/v1/session',
        json: { username: 'analis.direksi', password: 'Analis#2026!' },
      });
      expect(user.status === 200, `the user's own sign-in answered ${user.status}`);
    },
  },
  {
    area: 'limits',
    name: 'sign-in failures take the same time for unknown and existing usernames',
    async run(t) {
      const timeOf = async (username: string) => {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          times.push(
            (await t.send({ path: '/api/v1/session', json: { username, password: `Salah#${i}x` } })).ms,
          );
        }
        return median(times);
      };
      const unknown = await timeOf('tidak.ada.sama.sekali');
      const existing = await timeOf('admin.raharja');
      expect(
        Math.abs(unknown - existing) <= Math.max(8, 0.25 * Math.max(unknown, existing)),
        `median ${Math.round(unknown)} vs ${Math.round(existing)} ms`,
      );
    },
  },
  {
    area: 'limits',
    name: 'the current-password check of PUT /password is limited',
    async run(t) {
      const cookie = await t.freshSession('staff.holding2');
      let limited: Reply | undefined;
      for (let i = 0; i < 25 && !limited; i++) {
        const reply = await changePassword(t, cookie, `Tebakan#${i}`, 'Baru#Sekali-2026z');
        if (reply.status === 429) limited = reply;
      }
      expect(limited, '25 wrong current passwords were all checked');
      expect(Number(limited.headers['retry-after']) > 0, 'no Retry-After');
    },
  },
];
