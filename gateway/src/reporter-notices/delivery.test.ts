/**
 * A reporter's e-mail notices through the app's own job queue (pg-boss on the store) and a real SMTP
 * server: the confirmation mail arrives with its link, the confirmed address gets one mail after a
 * handler's message, and none of the mails carries the complaint number, the password or the text.
 */
import { randomUUID } from 'node:crypto';
import { demoCases } from '@wbs/legacy-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browser, ORIGIN, type TestApp } from '../test/helpers.ts';
import { as } from '../test/sessions.ts';
import { mailingTestApp, type TestSmtp } from '../test/smtp.ts';
import { until } from '../test/until.ts';

const [, investigasi] = demoCases;
const PROOF = { caseNumber: investigasi.caseNumber, password: investigasi.password };

describe('reporter notices delivered by the job queue', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  const address = `kabar.${randomUUID().slice(0, 8)}@surel-sekali.id`;
  const mailsTo = () => smtp.received.filter((m) => m.envelopeTo.includes(address));

  let mailing: Awaited<ReturnType<typeof mailingTestApp>> | undefined;
  beforeAll(async () => {
    mailing = await mailingTestApp({ TRACKING_FAILURE_FLOOR_MS: '50' });
    ({ t, smtp } = mailing);
  }, 60_000);
  afterAll(async () => mailing?.close());

  it('confirms by the mailed link, then tells of a handler message once, content-free', {
    timeout: 90_000,
  }, async () => {
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracking/reporter-notices',
      headers: { origin: ORIGIN },
      payload: { ...PROOF, email: address },
    });
    expect(asked.statusCode).toBe(202);
    await until(() => mailsTo().length === 1);
    const confirmation = mailsTo()[0]!;
    const token = /konfirmasi#([A-Za-z0-9_-]{43})/.exec(confirmation.parsed.text ?? '')?.[1];
    expect(token).toBeTruthy();
    const confirmed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reporter-notices/confirm',
      headers: { origin: ORIGIN },
      payload: { token },
    });
    expect(confirmed.statusCode).toBe(200);

    const text = 'Mohon kirimkan salinan kontrak gudang zamrud';
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cases/2/messages',
      headers: { ...browser(await as(t, 'admin.kahuripan')), 'idempotency-key': randomUUID() },
      payload: { text },
    });
    expect(posted.statusCode).toBe(201);
    await until(() => mailsTo().length === 2);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(mailsTo()).toHaveLength(2);
    const notice = mailsTo()[1]!;
    expect(notice.parsed.subject).toBe('WBS: ada tanggapan baru');
    for (const mail of mailsTo()) {
      for (const secret of [investigasi.caseNumber, investigasi.password, 'zamrud']) {
        expect(mail.raw).not.toContain(secret);
      }
    }
    expect(JSON.stringify(t.logs)).not.toContain(address);
  });
});
