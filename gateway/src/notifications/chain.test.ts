/**
 * The whole chain with the app's own jobs running, nothing called by hand: a report filed directly at
 * the legacy (not through the gateway) is found by the watcher, becomes notices, and reaches the
 * company's admin and the partner as one mail each, on the bell too; a company's handlers hear
 * nothing of another company's report.
 */
import type { NoticeListReply } from '@wbs/shared/api/notices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from '../store/drizzle.ts';
import { caseWatch } from '../store/schema.ts';
import type { TestApp } from '../test/helpers.ts';
import { legacyDesk } from '../test/legacy-cases.ts';
import { as } from '../test/sessions.ts';
import { mailingTestApp, type TestSmtp } from '../test/smtp.ts';
import { until } from '../test/until.ts';

const HOLDING = 'wbs@holding-airminum.example.id';
const ADMIN = 'admin.kahuripan@wbs.example.id';

describe('a report filed at the legacy reaches its handlers', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  const mailsTo = (address: string) => smtp.received.filter((m) => m.envelopeTo.includes(address));

  let mailing: Awaited<ReturnType<typeof mailingTestApp>> | undefined;
  beforeAll(async () => {
    mailing = await mailingTestApp({ WATCH_INTERVAL_SECONDS: '5' });
    ({ t, smtp } = mailing);
  }, 60_000);
  afterAll(async () => mailing?.close());

  it('seeds silently, then mails the admin and the partner once each for a new report', {
    timeout: 90_000,
  }, async () => {
    // The first pass over every company announces nothing (history is not news).
    await until(async () => {
      const store = await t.app.store.open();
      const seeded = await store.db.select().from(caseWatch).where(eq(caseWatch.seeded, true));
      return seeded.length >= 3;
    }, 45_000);
    expect(smtp.received.filter((m) => m.parsed.subject?.includes('Laporan baru'))).toHaveLength(0);

    const caseId = await legacyDesk(t).file(1);
    await until(() => mailsTo(ADMIN).length >= 1 && mailsTo(HOLDING).length >= 1, 45_000);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    for (const address of [ADMIN, HOLDING]) {
      const mails = mailsTo(address);
      expect(mails, address).toHaveLength(1);
      expect(mails[0]?.parsed.subject).toContain('Laporan baru');
    }
    expect(mailsTo('admin.pakuan@wbs.example.id')).toHaveLength(0);

    const cookie = await as(t, 'admin.kahuripan');
    const bell = await t.app.inject({ method: 'GET', url: '/api/v1/notices', headers: { cookie } });
    const items = (bell.json() as NoticeListReply).items.filter((i) => i.kind === 'new-report');
    expect(items.map((i) => i.caseId)).toEqual([caseId]);
    const pakuan = await t.app.inject({
      method: 'GET',
      url: '/api/v1/notices',
      headers: { cookie: await as(t, 'admin.pakuan') },
    });
    expect((pakuan.json() as NoticeListReply).items.filter((i) => i.kind === 'new-report')).toEqual([]);
  });
});
