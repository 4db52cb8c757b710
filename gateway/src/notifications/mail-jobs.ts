/**
 * The mails of handlers' notices (docs/product/notifications.md#handlers), sent by jobs
 * (docs/adr/0059-jobs-on-pg-boss.md) so that an SMTP outage delays them and loses none:
 * - `notice-mail`, one job per user at a time: every notice of that user waiting for an immediate
 *   mail, one mail per kind and company with a count (a burst of new reports is one mail);
 * - `notice-digest-plan` at 07:00 WIB sends `notice-digest` a job per user with notices waiting for
 *   the digest: one mail listing per company and kind how many.
 * A notice is marked sent right after its mail is accepted, and only mails still waiting are sent, so
 * a retry repeats nothing already sent; a process killed between the server's acceptance and the mark
 * sends that one mail again (with the same Message-ID). Addresses come from the store (sealed), never
 * from the job's data.
 */
import { createHash } from 'node:crypto';
import { wibToday, wibWallTime } from '@wbs/shared/handling-clock';
import type { NoticeKind } from '@wbs/shared/notices';
import type { FastifyBaseLogger } from 'fastify';
import { JobFailure } from '../jobs/plugin.ts';
import {
  handlerDigestMail,
  handlerNoticeMail,
  messageIdFor,
  secondFactorFailuresMail,
  securityNoticeMail,
} from '../mail/compose.ts';
import type { MailSettings } from '../mail/settings.ts';
import { MailError, type Mailer, type OutgoingMail } from '../mail/transport.ts';
import type { Store } from '../store/plugin.ts';
import { pendingMail, recipientEmails, setMailState } from './store.ts';
import { unsubscribeToken } from './unsubscribe.ts';

export const NOTICE_MAIL_QUEUE = 'notice-mail';
export const DIGEST_PLAN_QUEUE = 'notice-digest-plan';
export const DIGEST_QUEUE = 'notice-digest';
/** 07:00 WIB is 00:00 UTC. */
export const DIGEST_CRON = '0 0 * * *';
/** The web page of the digest's own stop link (web/src/notices/NoticeLinkPage.tsx). */
export const DIGEST_STOP_PATH = '/notifikasi/ringkasan';

export type MailDeps = {
  store: Store;
  mailer: Mailer;
  from: MailSettings['from'];
  publicUrl: string;
  secret: string;
  log: FastifyBaseLogger;
};

/** A UUID named by `key` (pg-boss keeps one job per id: the same digest of a day is sent once). */
export function jobIdFor(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Sends one mail; a refusal becomes the job's failure, retried only when retrying can help. */
async function send(deps: MailDeps, mail: OutgoingMail): Promise<void> {
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    if (error instanceof MailError) throw new JobFailure(`mail-${error.failure}`, error.retryable);
    throw new JobFailure('mail-failed');
  }
}

type Pending = Awaited<ReturnType<typeof pendingMail>>[number];

function groups(pending: readonly Pending[]) {
  const byKey = new Map<string, { kind: NoticeKind; companyName: string; ids: number[] }>();
  for (const row of pending) {
    const companyName = row.companyName ?? 'WBS';
    const key = `${row.kind}\n${companyName}`;
    const group = byKey.get(key) ?? { kind: row.kind as NoticeKind, companyName, ids: [] };
    group.ids.push(row.id);
    byKey.set(key, group);
  }
  return [...byKey.values()];
}

/** The address of `userId`, or null after marking its waiting notices as not to be mailed. */
async function addressOf(deps: MailDeps, userId: number, ids: readonly number[]): Promise<string | null> {
  const email = (await recipientEmails(deps.store, [userId])).get(userId) ?? null;
  if (email === null) await setMailState(deps.store, ids, 'off');
  return email;
}

/** Every notice of `userId` waiting for an immediate mail. */
export async function sendImmediateNotices(deps: MailDeps, userId: number): Promise<number> {
  const pending = await pendingMail(deps.store, userId, 'immediate');
  if (pending.length === 0) return 0;
  const to = await addressOf(
    deps,
    userId,
    pending.map((p) => p.id),
  );
  if (to === null) return 0;
  const signInUrl = `${deps.publicUrl}/auth/login`;
  let sent = 0;
  for (const group of groups(pending)) {
    const first = Math.min(...group.ids);
    const last = Math.max(...group.ids);
    const messageId = messageIdFor(`notice.${userId}.${first}-${last}`, deps.from);
    if (group.kind === 'new-device' || group.kind === 'second-factor-failures') {
      // Each security notice is its own mail: the user must be able to tell them apart.
      const compose = group.kind === 'new-device' ? securityNoticeMail : secondFactorFailuresMail;
      for (const id of group.ids) {
        const at = pending.find((p) => p.id === id)?.createdAt ?? new Date();
        await send(deps, {
          ...compose({
            to,
            messageId: messageIdFor(`notice.${userId}.${id}`, deps.from),
            at: wibWallTime(at),
            signInUrl,
          }),
        });
        await setMailState(deps.store, [id], 'sent');
        sent++;
      }
      continue;
    }
    await send(
      deps,
      handlerNoticeMail({
        to,
        messageId,
        kind: group.kind,
        companyName: group.companyName,
        count: group.ids.length,
        signInUrl,
      }),
    );
    await setMailState(deps.store, group.ids, 'sent');
    sent++;
  }
  return sent;
}

/** The digest of `userId` for `day` (WIB): notices waiting for it that were made before `cutoff`. */
export async function sendDigest(
  deps: MailDeps,
  userId: number,
  day: string,
  cutoff: Date,
): Promise<boolean> {
  const pending = await pendingMail(deps.store, userId, 'digest', cutoff);
  if (pending.length === 0) return false;
  const to = await addressOf(
    deps,
    userId,
    pending.map((p) => p.id),
  );
  if (to === null) return false;
  const items = groups(pending).map((g) => ({
    kind: g.kind,
    companyName: g.companyName,
    count: g.ids.length,
  }));
  const token = unsubscribeToken(deps.secret, userId);
  await send(
    deps,
    handlerDigestMail({
      to,
      messageId: messageIdFor(`digest.${userId}.${day}`, deps.from),
      day,
      items,
      signInUrl: `${deps.publicUrl}/auth/login`,
      preferencesUrl: `${deps.publicUrl}/admin/notifikasi`,
      unsubscribeUrl: `${deps.publicUrl}/api/v1/notice-preferences/unsubscribe?token=${encodeURIComponent(token)}`,
      unsubscribePageUrl: `${deps.publicUrl}${DIGEST_STOP_PATH}#${token}`,
    }),
  );
  await setMailState(
    deps.store,
    pending.map((p) => p.id),
    'sent',
  );
  return true;
}

export const digestDay = (now = new Date()) => wibToday(now.getTime());
