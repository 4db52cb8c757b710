/**
 * The reporter's e-mail notice (docs/product/notifications.md#pelapor) attacked from outside:
 * - mail-bombing a stranger: without the case password nothing is asked (the tracking 404, alike for
 *   an unknown number); with one's own case, flooding the opt-in from rotating client addresses and
 *   spellings leaves the first request standing and every answer identical; a second case of one's
 *   own cannot mail the same stranger again the same day;
 * - header injection through the address: CR/LF, a second recipient, a display name, controls and
 *   unicode are refused as one field error, never a 5xx;
 * - forged link tokens confirm nothing and learn nothing.
 * Every address used here ends in `.bom-uji.id`: the log cases look for it in every line.
 */
import {
  type AttackCase,
  caseNumberOf,
  expect,
  fileReport,
  GUEST_PASSWORD,
  json,
  problemType,
  type Tools,
} from '../support.ts';

const ASK = '/api/v1/tracking/reporter-notices';
const STATUS = '/api/v1/tracking/reporter-notices/status';
/** The victim's mailbox (masked k***@s***.id) and what the flood tries after it. */
const VICTIM = 'korban@sasaran.bom-uji.id';
const VICTIM_MASK = 'k***@s***.id';
const NEUTRAL = 'Bila alamat ini dapat menerima e-mail';

type Status = { confirmed: string | null; pending: string | null };

let ownNumber: string | undefined;
/** A report of the attacker's own (a guest filing): its number, with GUEST_PASSWORD. */
async function ownCase(t: Tools): Promise<string> {
  ownNumber ??= caseNumberOf(await fileReport(t));
  return ownNumber;
}

const ask = (t: Tools, caseNumber: string, password: string, email: string, address?: string) =>
  t.send({ path: ASK, json: { caseNumber, password, email }, ...(address ? { address } : {}) });

async function statusOf(t: Tools, caseNumber: string): Promise<Status> {
  const reply = await t.send({ path: STATUS, json: { caseNumber, password: GUEST_PASSWORD } });
  expect(reply.status === 200, `status answered ${reply.status}`);
  return json<Status>(reply);
}

export const reporterNoticeCases: AttackCase[] = [
  {
    area: 'reporter-notices',
    name: 'mail-bombing without the case password: the tracking 404, the same for an unknown number',
    async run(t) {
      const number = await ownCase(t);
      const wrong = await ask(t, number, 'Bukan#Sandinya-2026', VICTIM);
      const unknown = await ask(t, 'WBS-99999998', GUEST_PASSWORD, VICTIM);
      for (const reply of [wrong, unknown]) {
        expect(reply.status === 404, `answered ${reply.status}`);
        expect(problemType(reply) === 'not-found', `problem ${problemType(reply)}`);
      }
      expect(wrong.text === unknown.text, 'a wrong password and an unknown number answer differently');
      const status = await statusOf(t, number);
      expect(status.pending === null && status.confirmed === null, 'an unproven request was kept');
    },
  },
  {
    area: 'reporter-notices',
    name: 'mail-bombing a stranger from one’s own case: one confirmation, every answer the same',
    async run(t) {
      const number = await ownCase(t);
      const spellings = [
        VICTIM,
        'KORBAN@SASARAN.BOM-UJI.ID',
        'korban+1@sasaran.bom-uji.id',
        'korban+banjir@sasaran.bom-uji.id',
        'lain.1@kotak.bom-uji.id',
        'lain.2@kotak.bom-uji.id',
      ];
      const replies = [];
      for (let i = 0; i < 12; i++) {
        // Each from its own client address: no per-client counter to hide behind.
        replies.push(await ask(t, number, GUEST_PASSWORD, spellings[i % spellings.length] ?? VICTIM));
      }
      for (const reply of replies) {
        expect(reply.status === 202, `answered ${reply.status} ${reply.text.slice(0, 120)}`);
        expect(reply.text === replies[0]?.text, 'the answers differ');
      }
      expect(json<{ message: string }>(replies[0]!).message.startsWith(NEUTRAL), 'not the neutral answer');
      // Only the first request stands: the later ones replaced nothing (no further mail was made).
      expect((await statusOf(t, number)).pending === VICTIM_MASK, 'a later request replaced the first');

      // A second case of one's own, the same day: the stranger's mailbox is spent, in any spelling.
      const second = caseNumberOf(await fileReport(t));
      const again = await ask(t, second, GUEST_PASSWORD, 'Korban+lagi@Sasaran.Bom-Uji.ID');
      expect(again.status === 202 && again.text === replies[0]?.text, `answered ${again.status}`);
      const status = await statusOf(t, second);
      expect(status.pending === null, 'the same mailbox was mailed twice in a day');
    },
  },
  {
    area: 'reporter-notices',
    name: 'header injection through the address: one field error, never a 5xx, nothing stored',
    async run(t) {
      const number = await ownCase(t);
      const before = await statusOf(t, number);
      const payloads = [
        'a@kotak.bom-uji.id\r\nBcc: korban@sasaran.bom-uji.id',
        'a@kotak.bom-uji.id\nSubject: Hadiah',
        'a@kotak.bom-uji.id\r\n\r\nIsi palsu',
        '\r\nTo: korban@sasaran.bom-uji.id',
        'a@kotak.bom-uji.id%0d%0aBcc:korban@sasaran.bom-uji.id',
        'a@kotak.bom-uji.id, korban@sasaran.bom-uji.id',
        'a@kotak.bom-uji.id;korban@sasaran.bom-uji.id',
        'Penipu <korban@sasaran.bom-uji.id>',
        '"korban@sasaran.bom-uji.id" <a@kotak.bom-uji.id>',
        'korban@sasaran.bom-uji.id\u0000',
        'korban@sasaran.bom-uji.id\u2028Bcc: x@kotak.bom-uji.id',
        'korban@[127.0.0.1]',
        'kørban@sasaran.bom-uji.id',
        `${'a'.repeat(250)}@kotak.bom-uji.id`,
      ];
      for (const email of payloads) {
        const reply = await ask(t, number, GUEST_PASSWORD, email);
        expect(reply.status === 400, `${JSON.stringify(email)} answered ${reply.status}`);
        const errors = json<{ errors?: Record<string, string> }>(reply).errors ?? {};
        expect(
          Object.keys(errors).join() === 'email',
          `${JSON.stringify(email)} refused as ${Object.keys(errors)}`,
        );
      }
      const after = await statusOf(t, number);
      expect(
        after.pending === before.pending && after.confirmed === before.confirmed,
        'an injection was stored',
      );
    },
  },
  {
    area: 'reporter-notices',
    name: 'forged link tokens: confirm refuses alike, opt-out answers alike, a bad shape is a 400',
    async run(t) {
      const forged = ['A'.repeat(43), `${'z'.repeat(42)}_`, 'B'.repeat(43)];
      const confirms = [];
      const optOuts = [];
      for (const token of forged) {
        confirms.push(await t.send({ path: '/api/v1/reporter-notices/confirm', json: { token } }));
        optOuts.push(await t.send({ path: '/api/v1/reporter-notices/opt-out', json: { token } }));
      }
      for (const reply of confirms) {
        expect(reply.status === 404 && reply.text === confirms[0]?.text, `confirm answered ${reply.status}`);
      }
      for (const reply of optOuts) {
        expect(reply.status === 200 && reply.text === optOuts[0]?.text, `opt-out answered ${reply.status}`);
      }
      for (const token of ['', '../../etc/passwd', 'A'.repeat(44), { $ne: null }, ['A'.repeat(43)]]) {
        const reply = await t.send({ path: '/api/v1/reporter-notices/confirm', json: { token } });
        expect(reply.status === 400, `${JSON.stringify(token)} answered ${reply.status}`);
      }
    },
  },
];
