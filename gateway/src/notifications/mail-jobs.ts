/**
 * The mails of handlers' notices (docs/product/notifications.md#handlers), sent by jobs
 * (docs/adr/0059-jobs-on-pg-boss.md) so that an SMTP outage delays them and loses none:
 * - `notice-mail`, one job per user at a time: every notice of that user waiting for an immediate
 *   mail, one mail per kind and company with a count (a burst of new reports is one mail). After a
 *   mail of a kind and company, the next of the same waits until `windowMs` has passed (ADR 0077): a
 *   reporter writing six messages in a minute is one mail at once and one with the other five when
 *   the window ends, not six; notices the user opened on the bell meanwhile are not mailed at all.
 *   The job says when its first waiting group is due (`nextAt`), and the plugin asks for a run then;
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
import {
  mailWindows,
  markMailed,
  pendingMail,
  recipientEmails,
  setMailState,
  windowCompany,
} from './store.ts';
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
type Group = { kind: NoticeKind; companyId: number | null; companyName: string; rows: Pending[] };

/** The notices by kind and company, oldest first; a group is named after its newest notice's company. */
function groups(pending: readonly Pending[]): Group[] {
  const byKey = new Map<string, Group>();
  for (const row of pending) {
    const key = `${row.kind}\n${windowCompany(row.companyId)}`;
    const group = byKey.get(key) ?? {
      kind: row.kind as NoticeKind,
      companyId: row.companyId,
      companyName: 'WBS',
      rows: [],
    };
    group.rows.push(row);
    group.companyName = row.companyName ?? group.companyName;
    byKey.set(key, group);
  }
  return [...byKey.values()];
}

const idsOf = (rows: readonly Pending[]) => rows.map((row) => row.id);

/** The address of `userId`, or null after marking its waiting notices as not to be mailed. */
async function addressOf(deps: MailDeps, userId: number, ids: readonly number[]): Promise<string | null> {
  const email = (await recipientEmails(deps.store, [userId])).get(userId) ?? null;
  if (email === null) await setMailState(deps.store, ids, 'off');
  return email;
}

export type ImmediateDeps = MailDeps & {
  /** After a mail of a kind and company, how long the next of the same waits (NOTICE_MAIL_WINDOW_SECONDS). */
  windowMs: number;
};

export type ImmediateResult = {
  /** Mails sent by this run. */
  sent: number;
  /** When the first group left waiting may be mailed (null: none waits). */
  nextAt: Date | null;
};

/**
 * Every notice of `userId` waiting for an immediate mail whose kind and company is out of its
 * window at `now`: one mail per kind and company, with the count of those not yet read.
 */
export async function sendImmediateNotices(
  deps: ImmediateDeps,
  userId: number,
  now = new Date(),
): Promise<ImmediateResult> {
  const pending = await pendingMail(deps.store, userId, 'immediate');
  if (pending.length === 0) return { sent: 0, nextAt: null };
  const to = await addressOf(deps, userId, idsOf(pending));
  if (to === null) return { sent: 0, nextAt: null };
  const signInUrl = `${deps.publicUrl}/auth/login`;
  const windows = await mailWindows(deps.store, userId);
  let sent = 0;
  let nextAt: Date | null = null;
  for (const group of groups(pending)) {
    if (group.kind === 'new-device' || group.kind === 'second-factor-failures') {
      // A security notice: each its own mail at once (the user must be able to tell them apart, and a
      // stranger's sign-in or guessing must not wait), whatever came before.
      const compose = group.kind === 'new-device' ? securityNoticeMail : secondFactorFailuresMail;
      for (const row of group.rows) {
        await send(deps, {
          ...compose({
            to,
            messageId: messageIdFor(`notice.${userId}.${row.id}`, deps.from),
            at: wibWallTime(row.createdAt),
            signInUrl,
          }),
        });
        await setMailState(deps.store, [row.id], 'sent');
        sent++;
      }
      continue;
    }
    const last = windows.get(`${group.kind}\n${windowCompany(group.companyId)}`);
    const opensAt = last ? new Date(last.getTime() + deps.windowMs) : null;
    if (opensAt && opensAt > now) {
      if (!nextAt || opensAt < nextAt) nextAt = opensAt;
      continue;
    }
    // Opened on the bell while they waited: the user has seen them, a mail would tell nothing new.
    const seen = group.rows.filter((row) => row.readAt !== null);
    const unseen = group.rows.filter((row) => row.readAt === null);
    if (seen.length > 0) await setMailState(deps.store, idsOf(seen), 'off');
    if (unseen.length === 0) continue;
    const ids = idsOf(unseen);
    await send(
      deps,
      handlerNoticeMail({
        to,
        messageId: messageIdFor(`notice.${userId}.${ids[0]}-${ids[ids.length - 1]}`, deps.from),
        kind: group.kind,
        companyName: group.companyName,
        count: ids.length,
        signInUrl,
      }),
    );
    await markMailed(deps.store, ids, { userId, kind: group.kind, companyId: group.companyId, at: now });
    sent++;
  }
  return { sent, nextAt };
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
  const to = await addressOf(deps, userId, idsOf(pending));
  if (to === null) return false;
  const items = groups(pending).map((g) => ({
    kind: g.kind,
    companyName: g.companyName,
    count: g.rows.length,
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
  await setMailState(deps.store, idsOf(pending), 'sent');
  return true;
}

export const digestDay = (now = new Date()) => wibToday(now.getTime());
