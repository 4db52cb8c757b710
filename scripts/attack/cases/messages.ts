/**
 * Pesan: unread marks never tell a handler of a case outside its list, and no one floods a
 * conversation: a tracker rotating addresses meets the per-case limit, a signed-in reporter its own,
 * and neither silences the handlers' side.
 */
import { type AttackCase, expect, json, type Tools, wholeYear } from '../support.ts';

/** WBS-10000002 (company 1, Investigasi): its tracker password is the seed's. */
const TRACKED = { caseNumber: 'WBS-10000002', password: 'Lapor#2026!' };
/** MESSAGES_MAX_PER_CASE_SIDE's default. */
const PER_CASE_SIDE = 20;
const FLOOD_DETAIL = /^Terlalu banyak pengiriman dalam waktu singkat, silakan coba lagi dalam \d+ menit$/;

type Row = { id: number; number: string; caseLineId: number | null; unreadFromReporter: number | null };

async function listRows(t: Tools, as: string): Promise<Row[]> {
  const reply = await t.send({ as, path: '/api/v1/cases/search', json: wholeYear() });
  expect(reply.status === 200, `${as} list answered ${reply.status}`);
  return json<{ items: Row[] }>(reply).items;
}

const trackerPost = (t: Tools, text: string, address?: string) =>
  t.send({
    path: '/api/v1/tracking/messages',
    json: { ...TRACKED, text },
    ...(address ? { address } : {}),
  });

export const messageCases: AttackCase[] = [
  {
    area: 'messages',
    name: 'unread marks: no separate marks call, and none for a case of another line',
    async run(t) {
      const gone = await t.send({
        as: 'analis.direksi',
        path: '/api/v1/cases/message-marks?caseIds=1,2,3,4',
      });
      // Gone: its path now reads as GET /cases/{id} with an id that is no number (400 on `id`), or 404.
      const idRefused =
        gone.status === 400 && json<{ errors?: Record<string, string> }>(gone).errors?.id !== undefined;
      expect(
        gone.status === 404 || idRefused,
        `the old marks call answered ${gone.status} ${gone.text.slice(0, 120)}`,
      );
      const posted = await trackerPost(t, 'Apakah laporan saya sudah dibaca?');
      expect(posted.status === 201, `tracker message answered ${posted.status}`);
      const tracked = (await listRows(t, 'admin.kahuripan')).find((row) => row.number === TRACKED.caseNumber);
      expect(tracked && (tracked.unreadFromReporter ?? 0) > 0, 'the company admin sees no mark');
      // Jalur Direksi is line 1, Jalur SPI line 3: an analyst of another line neither lists nor marks it.
      for (const [analyst, line] of [
        ['analis.direksi', 1],
        ['analis.spi', 3],
      ] as const) {
        const row = (await listRows(t, analyst)).find((r) => r.id === tracked.id);
        if (tracked.caseLineId === line) {
          expect(row && (row.unreadFromReporter ?? 0) > 0, `${analyst} of the case's line sees no mark`);
        } else {
          expect(row === undefined, `${analyst} lists a case of another line`);
        }
      }
      const pelapor = await listRows(t, 'pelapor');
      expect(
        pelapor.every((row) => row.unreadFromReporter === null),
        'the reporter got unread marks of the handlers’ side',
      );
    },
  },
  {
    area: 'messages',
    name: 'a tracker rotating addresses floods one case: cut at the per-case limit, handlers still answer',
    async run(t) {
      const statuses: number[] = [];
      let refused: Awaited<ReturnType<typeof trackerPost>> | undefined;
      for (let i = 0; i < PER_CASE_SIDE + 5; i++) {
        const reply = await trackerPost(t, `Pesan banjir ${i}`);
        statuses.push(reply.status);
        if (reply.status === 429) refused ??= reply;
      }
      const stored = statuses.filter((s) => s === 201).length;
      expect(refused, `never refused: ${statuses.join(' ')}`);
      expect(stored <= PER_CASE_SIDE, `${stored} messages stored in one window`);
      expect(Number(refused.headers['retry-after']) > 0, 'no Retry-After');
      const detail = json<{ detail?: string }>(refused).detail ?? '';
      expect(FLOOD_DETAIL.test(detail), `refused with ${detail}`);
      const tracked = (await listRows(t, 'admin.kahuripan')).find((row) => row.number === TRACKED.caseNumber);
      const answer = await t.send({
        as: 'admin.kahuripan',
        path: `/api/v1/cases/${tracked?.id}/messages`,
        json: { text: 'Tim kami sedang menindaklanjuti laporan Anda' },
      });
      expect(answer.status === 201, `the handler could not answer: ${answer.status}`);
    },
  },
  {
    area: 'messages',
    name: 'a signed-in reporter floods its own case: refused within the window',
    async run(t) {
      const caseId = t.fixtures.pelaporCaseId;
      expect(caseId !== null, 'the seed gives the pelapor no case');
      const statuses: number[] = [];
      for (let i = 0; i < PER_CASE_SIDE + 3; i++) {
        const reply = await t.send({
          as: 'pelapor',
          path: `/api/v1/cases/${caseId}/messages`,
          json: { text: `Pesan beruntun ${i}` },
        });
        statuses.push(reply.status);
      }
      const stored = statuses.filter((s) => s === 201).length;
      expect(stored <= PER_CASE_SIDE && statuses.includes(429), `answered ${statuses.join(' ')}`);
    },
  },
];
