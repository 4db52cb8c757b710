/**
 * The mail jobs against a real SMTP server: one recipient and one To header, exactly the stored
 * address; nothing of the case in the mail; a transport that is down makes the job retry (an error
 * naming no one), a refused recipient is dropped, and no log line quotes the address even when the
 * server's refusal does.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { caseBinder } from '../store/case-binding.ts';
import { type Database, MEMORY_DATA_DIR, openEmbedded } from '../store/database.ts';
import { sealer } from '../store/keyring.ts';
import type { Store } from '../store/plugin.ts';
import { reporterConfirmationSend, reporterSubscription } from '../store/schema.ts';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.ts';
import { type MailJobDeps, MailRetry, sendConfirmationMail, sendNoticeMail } from './jobs.ts';
import type { NoticeEvent } from './notify.ts';
import { claimNotice, confirmByToken, createPending, prepareConfirmation } from './store.ts';

const binder = caseBinder(randomBytes(32), () => {});
const PUBLIC_URL = 'https://wbs.example/';
let database: Database;
let store: Store;
let sink: SmtpSink;
let serial = 0;
const lines: Record<string, unknown>[] = [];
const events: NoticeEvent[] = [];

beforeAll(async () => {
  database = await openEmbedded(MEMORY_DATA_DIR);
  store = {
    db: database.db,
    engine: database.engine,
    embedded: database.embedded,
    sealer: sealer([{ id: 'k', key: randomBytes(32) }]),
    cases: binder,
  };
  sink = await startSmtpSink();
}, 120_000);
afterAll(async () => {
  await sink?.close();
  await database?.close();
});
beforeEach(async () => {
  await store.db.delete(reporterSubscription);
  await store.db.delete(reporterConfirmationSend);
  sink.mails.length = 0;
  sink.down = false;
  sink.refuse.clear();
  lines.length = 0;
  events.length = 0;
});

const log = {
  warn: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', ...fields, msg }),
  info: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'info', ...fields, msg }),
};
const deps = (overrides: Partial<MailJobDeps> = {}): MailJobDeps => ({
  store,
  mailer: sink.mailer,
  publicUrl: PUBLIC_URL,
  log,
  count: (event) => events.push(event),
  ...overrides,
});

/** A pending address on a fresh case; its row id. */
async function pending(address: string) {
  const ref = binder.bind({
    caseCompanyId: 1,
    caseId: ++serial,
    caseNumber: `WBS-${serial}`,
    caseCreated: '2026-02-01T10:00:00',
  });
  const created = await createPending(store, ref, { address, audience: 'tracker', now: new Date() });
  if (created.outcome !== 'created') throw new Error('limited');
  return { ref, id: created.id };
}

describe('reporter mail jobs', () => {
  it('a confirmation: one recipient, one To header, a fresh single-use token in the fragment only', async () => {
    const address = "o'neil.s+wbs@surat-sekali.id";
    const { id } = await pending(address);
    await sendConfirmationMail(deps(), { subscriptionId: id });
    const [mail, ...more] = sink.mails;
    expect(more).toEqual([]);
    expect(mail?.rcptTo).toEqual([address]);
    const to = mail?.headerLines.filter((line) => /^to:/i.test(line)) ?? [];
    expect(to).toHaveLength(1);
    expect(mail?.headerLines.some((line) => /^(bcc|cc):/i.test(line))).toBe(false);
    const token = mail?.text.match(
      /https:\/\/wbs\.example\/notifikasi\/konfirmasi#([A-Za-z0-9_-]{43})\b/,
    )?.[1];
    expect(token).toBeDefined();
    // No query string, no path carrying it.
    expect(mail?.raw).not.toMatch(/konfirmasi\?|konfirmasi\/[A-Za-z0-9_-]{20}/);
    expect(events).toEqual(['mail-sent']);

    // A retried job makes a new link; the older one no longer works.
    await sendConfirmationMail(deps(), { subscriptionId: id });
    const second = sink.mails[1]?.text.match(/#([A-Za-z0-9_-]{43})/)?.[1];
    expect(second).not.toBe(token);
    expect(await confirmByToken(store, token ?? '', new Date())).toBeNull();
    expect(await confirmByToken(store, second ?? '', new Date())).toEqual({ masked: 'o***@s***.id' });
  });

  it('a transport that is down: the job throws for a retry, naming nobody; the row stays', async () => {
    const address = 'tertunda@surat-sekali.id';
    const { id } = await pending(address);
    sink.down = true;
    const error = await sendConfirmationMail(deps(), { subscriptionId: id }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailRetry);
    expect(String((error as Error).message)).not.toContain('tertunda');
    expect(events).toEqual(['mail-retry']);
    sink.down = false;
    await sendConfirmationMail(deps(), { subscriptionId: id });
    expect(sink.mails.map((m) => m.rcptTo)).toEqual([[address]]);
    expect(JSON.stringify(lines)).not.toContain('tertunda');
  });

  it('a recipient the server refuses (quoting it): dropped without a retry, and the log names only the code', async () => {
    const address = 'tidak-ada@surat-sekali.id';
    const { id } = await pending(address);
    sink.refuse.add(address);
    await sendConfirmationMail(deps(), { subscriptionId: id });
    expect(events).toEqual(['mail-failed']);
    expect(lines.at(-1)).toMatchObject({ msg: 'reporter notices: mail refused', responseCode: 550 });
    expect(JSON.stringify(lines)).not.toContain('tidak-ada');
  });

  it('a notice: the opt-out link and Pantau Laporan, nothing else; none once the address is gone', async () => {
    const address = 'kabar@surat-sekali.id';
    const { id, ref } = await pending(address);
    const prepared = await prepareConfirmation(store, id, new Date());
    await confirmByToken(store, prepared?.token ?? '', new Date());
    const claim = await claimNotice(store, ref, 1, new Date());
    expect(claim?.id).toBe(id);
    await sendNoticeMail(deps(), { subscriptionId: id });
    const [mail] = sink.mails;
    expect(mail?.rcptTo).toEqual([address]);
    expect(mail?.text).toContain('https://wbs.example/admin/checkcase');
    expect(mail?.text).toMatch(/https:\/\/wbs\.example\/notifikasi\/berhenti#[A-Za-z0-9_-]{43}/);
    expect(mail?.raw).not.toContain(ref.binding);
    expect(mail?.raw).not.toMatch(/WBS-\d/);
    await store.db.delete(reporterSubscription);
    await sendNoticeMail(deps(), { subscriptionId: id });
    expect(sink.mails).toHaveLength(1);
  });

  it('without a transport, PUBLIC_URL or a row id: nothing sent, a line saying why, no retry', async () => {
    const { id } = await pending('tanpa@surat-sekali.id');
    await sendConfirmationMail(deps({ mailer: null }), { subscriptionId: id });
    await sendConfirmationMail(deps({ publicUrl: null }), { subscriptionId: id });
    await sendConfirmationMail(deps(), { subscriptionId: 'x' });
    await sendNoticeMail(deps(), null);
    expect(sink.mails).toEqual([]);
    expect(lines.map((l) => l.msg)).toEqual([
      'reporter notices: no mail transport, mail dropped',
      'reporter notices: PUBLIC_URL not set, mail dropped',
      'reporter notices: job without a subscription id, dropped',
      'reporter notices: job without a subscription id, dropped',
    ]);
  });
});
