/**
 * Handlers' notices: a notice never crosses a company, a user cannot read or mark another's, a tracker
 * writing message after message cannot flood the handlers' mailboxes, the digest's unsubscribe link
 * cannot be forged, and the dead letters are the administrator's only.
 */
import { createHmac } from 'node:crypto';
import { sinkMessages } from '../../support/mail.ts';
import { type AttackCase, expect, json, type Tools } from '../support.ts';

/** WBS-10000001 (company 1, Baru; the messages cases use up WBS-10000002's limit). */
const TRACKED = { caseNumber: 'WBS-10000001', password: 'Lapor#2026!' };

type Notice = { id: number; kind: string; companyId: number | null; caseId: number | null; read: boolean };

async function noticesOf(t: Tools, as: string): Promise<Notice[]> {
  const reply = await t.send({ as, path: '/api/v1/notices' });
  expect(reply.status === 200, `${as} bell answered ${reply.status}`);
  return json<{ items: Notice[] }>(reply).items;
}

/** Waits until `as` has a reporter-message notice (the notifier runs as a job, within seconds). */
async function awaitReporterNotice(t: Tools, as: string): Promise<Notice> {
  for (let i = 0; i < 100; i++) {
    const found = (await noticesOf(t, as)).find((n) => n.kind === 'reporter-message' && n.companyId === 1);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${as} was never told of the reporter's message`);
}

export const noticeCases: AttackCase[] = [
  {
    area: 'notices',
    name: "a reporter's message is told to its company's handlers only; another's notices cannot be marked",
    async run(t) {
      const posted = await t.send({
        path: '/api/v1/tracking/messages',
        json: { ...TRACKED, text: 'Pesan untuk uji notifikasi lintas perusahaan.' },
      });
      expect(posted.status === 201, `tracker message answered ${posted.status}`);
      const own = await awaitReporterNotice(t, 'admin.kahuripan');
      // Company 2's admin hears nothing of company 1's cases.
      const foreign = (await noticesOf(t, 'admin.pakuan')).filter((n) => n.companyId === 1);
      expect(foreign.length === 0, `admin.pakuan holds ${foreign.length} notices of company 1`);
      // Marking every id it can guess changes nothing of another user's bell.
      const ids = Array.from({ length: 200 }, (_, i) => i + 1);
      const marked = await t.send({ as: 'admin.pakuan', path: '/api/v1/notices/read', json: { ids } });
      expect(marked.status === 200, `marking answered ${marked.status}`);
      const after = (await noticesOf(t, 'admin.kahuripan')).find((n) => n.id === own.id);
      expect(after && !after.read, "another user's read marks reached admin.kahuripan's notice");
      // The bell is staff's: a guest and a signed-in reporter have none.
      const guest = await t.send({ path: '/api/v1/notices' });
      expect(guest.status === 401, `a guest's bell answered ${guest.status}`);
      const pelapor = await t.send({ as: 'pelapor', path: '/api/v1/notices' });
      expect(pelapor.status === 403, `the pelapor's bell answered ${pelapor.status}`);
    },
  },
  {
    area: 'notices',
    name: "six tracker messages 2.5 s apart: at most one mail per handler, every message on the admin's bell",
    async run(t) {
      expect(t.mailSinkUrl !== '', 'the suite runs no mail sink');
      const mailedBefore = Math.max(0, ...(await sinkMessages(t.mailSinkUrl)).map((m) => m.id));
      const bellBefore = Math.max(0, ...(await noticesOf(t, 'admin.kahuripan')).map((n) => n.id));
      const messages = 6;
      for (let i = 0; i < messages; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 2_500));
        const posted = await t.send({
          path: '/api/v1/tracking/messages',
          json: { ...TRACKED, text: `Pesan beruntun ${i + 1} untuk penangan.` },
        });
        expect(posted.status === 201, `message ${i + 1} answered ${posted.status}`);
      }
      // Nothing is lost: the admin's bell holds every message (the notifier runs within seconds).
      let told = 0;
      for (let i = 0; i < 50 && told < messages; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 200));
        told = (await noticesOf(t, 'admin.kahuripan')).filter(
          (n) => n.id > bellBefore && n.kind === 'reporter-message' && n.companyId === 1,
        ).length;
      }
      expect(told === messages, `the bell holds ${told} of the ${messages} messages`);
      // The mail jobs of the last notices have had time to send (one a second).
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const perHandler = new Map<string, number>();
      for (const mail of await sinkMessages(t.mailSinkUrl)) {
        if (mail.id <= mailedBefore || !mail.subject.includes('Pesan baru dari pelapor')) continue;
        for (const to of mail.envelope.to) perHandler.set(to, (perHandler.get(to) ?? 0) + 1);
      }
      const flooded = [...perHandler].filter(([, n]) => n > 1);
      expect(flooded.length === 0, `mails per handler: ${JSON.stringify(Object.fromEntries(perHandler))}`);
    },
  },
  {
    area: 'notices',
    name: "the digest's unsubscribe link: forged, altered or foreign tokens change nothing",
    async run(t) {
      const forged = (userId: number, secret: string) =>
        `${Buffer.from(String(userId)).toString('base64url')}.${createHmac('sha256', secret)
          .update(`wbs-digest-unsubscribe|${userId}`)
          .digest('base64url')}`;
      for (const token of [
        forged(2, 'not-the-gateway-secret-not-the-gateway'),
        `${forged(2, t.sessionSecret)}A`,
        `${Buffer.from('2 OR 1=1').toString('base64url')}.AAAA`,
        '../../etc/passwd.x',
      ]) {
        const reply = await t.send({
          path: `/api/v1/notice-preferences/unsubscribe?token=${encodeURIComponent(token)}`,
          body: 'List-Unsubscribe=One-Click',
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(reply.status === 404 || reply.status === 400, `token ${token} answered ${reply.status}`);
      }
    },
  },
  {
    area: 'notices',
    name: 'the failed mails are the administrator’s: other users get 403, a made-up id 404',
    async run(t) {
      for (const as of ['admin.kahuripan', 'holding', 'analis.direksi', 'staff.holding', 'pelapor']) {
        const list = await t.send({ as, path: '/api/v1/mail/dead-letters' });
        expect(list.status === 403, `${as} listing dead letters answered ${list.status}`);
      }
      const admin = await t.send({ as: 'admin', path: '/api/v1/mail/dead-letters' });
      expect(admin.status === 200, `the administrator's list answered ${admin.status}`);
      const retry = await t.send({
        as: 'admin',
        method: 'POST',
        path: '/api/v1/mail/dead-letters/00000000-0000-4000-8000-000000000000/retry',
      });
      expect(retry.status === 404, `a made-up dead letter answered ${retry.status}`);
    },
  },
];
