/**
 * Notices in the store: the bell's rows of each user, their mail state, and each user's mail choice per
 * kind (docs/product/notifications.md#handlers). A notice names a kind, a company and a case id; never
 * a text, a complaint number or anyone's name.
 */
import {
  DEFAULT_MAIL_MODE,
  LOCKED_NOTICE_KINDS,
  type MailMode,
  NOTICE_KINDS,
  type NoticeKind,
} from '@wbs/shared/notices';
import { and, count, desc, eq, inArray, isNull, lt, sql } from '../store/drizzle.ts';
import type { Store } from '../store/plugin.ts';
import { notice, noticeMailWindow, noticePreference, noticeRecipient } from '../store/schema.ts';

/** The bell lists this many notices per page. */
export const NOTICE_PAGE = 30;

export type NoticeRow = {
  id: number;
  kind: NoticeKind;
  companyId: number | null;
  companyName: string | null;
  caseId: number | null;
  createdAt: Date;
  read: boolean;
};

export type NewNotice = {
  userId: number;
  kind: NoticeKind;
  companyId: number | null;
  companyName: string | null;
  caseId: number | null;
  caseBinding: string | null;
  /** What makes the notice unique for its user: the same event produced twice is one notice. */
  dedupe: string;
  mail: 'off' | 'immediate' | 'digest';
};

type Tx = Parameters<Parameters<Store['db']['transaction']>[0]>[0];
type Db = Store['db'] | Tx;

/** Adds notices; one already there (same user, same dedupe) stays as it is. Returns those added. */
export async function addNotices(db: Db, rows: readonly NewNotice[]): Promise<NewNotice[]> {
  if (rows.length === 0) return [];
  const added = await db
    .insert(notice)
    .values(rows.map((row) => ({ ...row })))
    .onConflictDoNothing({ target: [notice.userId, notice.dedupe] })
    .returning({ userId: notice.userId, dedupe: notice.dedupe });
  const keys = new Set(added.map((row) => `${row.userId}\n${row.dedupe}`));
  return rows.filter((row) => keys.has(`${row.userId}\n${row.dedupe}`));
}

export async function listNotices(
  store: Store,
  userId: number,
  before: number | undefined,
): Promise<{ items: NoticeRow[]; unread: number; more: boolean }> {
  const rows = await store.db
    .select({
      id: notice.id,
      kind: notice.kind,
      companyId: notice.companyId,
      companyName: notice.companyName,
      caseId: notice.caseId,
      createdAt: notice.createdAt,
      readAt: notice.readAt,
    })
    .from(notice)
    .where(and(eq(notice.userId, userId), before ? lt(notice.id, before) : undefined))
    .orderBy(desc(notice.id))
    .limit(NOTICE_PAGE + 1);
  const unread = await unreadCount(store, userId);
  return {
    items: rows.slice(0, NOTICE_PAGE).map((row) => ({
      id: row.id,
      // A kind this version does not know (written by a newer replica) shows as the nearest known one.
      kind: (NOTICE_KINDS as readonly string[]).includes(row.kind) ? (row.kind as NoticeKind) : 'new-report',
      companyId: row.companyId,
      companyName: row.companyName,
      caseId: row.caseId,
      createdAt: row.createdAt,
      read: row.readAt !== null,
    })),
    unread,
    more: rows.length > NOTICE_PAGE,
  };
}

export async function unreadCount(store: Store, userId: number): Promise<number> {
  const [row] = await store.db
    .select({ n: count() })
    .from(notice)
    .where(and(eq(notice.userId, userId), isNull(notice.readAt)));
  return Number(row?.n ?? 0);
}

/** Marks the user's notices read (only the user's own: another user's ids change nothing). */
export async function markRead(
  store: Store,
  userId: number,
  ids: readonly number[] | 'all',
): Promise<number> {
  await store.db
    .update(notice)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notice.userId, userId),
        isNull(notice.readAt),
        ids === 'all' ? undefined : inArray(notice.id, [...ids]),
      ),
    );
  return unreadCount(store, userId);
}

export type Preferences = Record<NoticeKind, MailMode>;

/** Each user's mail choice per kind, defaults filled in and security notices always immediate. */
export async function preferencesOf(db: Db, userIds: readonly number[]): Promise<Map<number, Preferences>> {
  const result = new Map<number, Preferences>();
  for (const id of userIds) result.set(id, { ...DEFAULT_MAIL_MODE });
  if (userIds.length === 0) return result;
  const rows = await db
    .select()
    .from(noticePreference)
    .where(inArray(noticePreference.userId, [...new Set(userIds)]));
  for (const row of rows) {
    const prefs = result.get(row.userId);
    const kind = row.kind as NoticeKind;
    if (prefs && kind in prefs && !LOCKED_NOTICE_KINDS.has(kind)) prefs[kind] = row.mail;
  }
  return result;
}

export async function savePreferences(
  store: Store,
  userId: number,
  items: readonly { kind: NoticeKind; mail: MailMode }[],
): Promise<void> {
  const rows = items.filter((item) => !LOCKED_NOTICE_KINDS.has(item.kind));
  if (rows.length === 0) return;
  await store.db
    .insert(noticePreference)
    .values(rows.map((row) => ({ userId, kind: row.kind, mail: row.mail })))
    .onConflictDoUpdate({
      target: [noticePreference.userId, noticePreference.kind],
      set: { mail: sql`excluded.mail`, updatedAt: sql`now()` },
    });
}

/** Every kind the user gets as a digest is mailed no more (the digest's one-click unsubscribe). */
export async function stopDigests(store: Store, userId: number): Promise<void> {
  const prefs = (await preferencesOf(store.db, [userId])).get(userId) as Preferences;
  const digests = NOTICE_KINDS.filter((kind) => prefs[kind] === 'digest');
  await savePreferences(
    store,
    userId,
    digests.map((kind) => ({ kind, mail: 'off' as const })),
  );
  // What was waiting for tomorrow's digest is not sent either.
  await store.db
    .update(notice)
    .set({ mail: 'off' })
    .where(and(eq(notice.userId, userId), eq(notice.mail, 'digest')));
}

/** Notices of a user waiting for a mail of `mode`, oldest first. */
export async function pendingMail(
  store: Store,
  userId: number,
  mode: 'immediate' | 'digest',
  createdBefore?: Date,
) {
  return store.db
    .select({
      id: notice.id,
      kind: notice.kind,
      companyId: notice.companyId,
      companyName: notice.companyName,
      createdAt: notice.createdAt,
      readAt: notice.readAt,
    })
    .from(notice)
    .where(
      and(
        eq(notice.userId, userId),
        eq(notice.mail, mode),
        createdBefore ? lt(notice.createdAt, createdBefore) : undefined,
      ),
    )
    .orderBy(notice.id)
    .limit(1000);
}

/** Users with notices waiting for a mail of `mode` (older than `olderThan`, when given). */
export async function usersWithPendingMail(
  store: Store,
  mode: 'immediate' | 'digest',
  olderThan?: Date,
): Promise<number[]> {
  const rows = await store.db
    .selectDistinct({ userId: notice.userId })
    .from(notice)
    .where(and(eq(notice.mail, mode), olderThan ? lt(notice.createdAt, olderThan) : undefined))
    .limit(10_000);
  return rows.map((row) => row.userId);
}

/** The window key of a notice's company: 0 for a notice of no company (a sign-in). */
export const windowCompany = (companyId: number | null) => companyId ?? 0;

/** When `userId` was last mailed each kind and company (key: `kind\ncompany`, see windowCompany). */
export async function mailWindows(store: Store, userId: number): Promise<Map<string, Date>> {
  const rows = await store.db.select().from(noticeMailWindow).where(eq(noticeMailWindow.userId, userId));
  return new Map(rows.map((row) => [`${row.kind}\n${row.companyId}`, row.lastMailAt]));
}

/**
 * The notices `ids` went out in one mail of `kind` and `companyId` at `at`: they are marked sent and
 * the window of that kind and company starts again, together (a crash leaves neither half).
 */
export async function markMailed(
  store: Store,
  ids: readonly number[],
  mail: { userId: number; kind: string; companyId: number | null; at: Date },
): Promise<void> {
  await store.db.transaction(async (tx) => {
    if (ids.length > 0) {
      await tx
        .update(notice)
        .set({ mail: 'sent' })
        .where(inArray(notice.id, [...ids]));
    }
    await tx
      .insert(noticeMailWindow)
      .values({
        userId: mail.userId,
        kind: mail.kind,
        companyId: windowCompany(mail.companyId),
        lastMailAt: mail.at,
      })
      .onConflictDoUpdate({
        target: [noticeMailWindow.userId, noticeMailWindow.kind, noticeMailWindow.companyId],
        set: { lastMailAt: sql`greatest(${noticeMailWindow.lastMailAt}, excluded.last_mail_at)` },
      });
  });
}

export async function setMailState(
  store: Store,
  ids: readonly number[],
  state: 'sent' | 'off' | 'failed',
): Promise<void> {
  if (ids.length === 0) return;
  await store.db
    .update(notice)
    .set({ mail: state })
    .where(inArray(notice.id, [...ids]));
}

const recipientContext = (userId: number) => `notice-recipient|${userId}`;

/**
 * Keeps where each user's notices are mailed (null: the account has no address, so nothing is
 * mailed). Written only when it changed: the notifier refreshes it on every batch.
 */
export async function saveRecipients(
  store: Store,
  recipients: readonly { userId: number; email: string | null }[],
): Promise<void> {
  if (recipients.length === 0) return;
  const ids = [...new Set(recipients.map((r) => r.userId))];
  const known = await recipientEmails(store, ids);
  for (const { userId, email } of recipients) {
    if (known.get(userId) === email) continue;
    known.set(userId, email);
    if (email === null) {
      await store.db.delete(noticeRecipient).where(eq(noticeRecipient.userId, userId));
      continue;
    }
    const sealed = store.sealer.seal(email, recipientContext(userId));
    await store.db
      .insert(noticeRecipient)
      .values({ userId, keyId: sealed.keyId, sealedEmail: sealed.sealed })
      .onConflictDoUpdate({
        target: noticeRecipient.userId,
        set: { keyId: sealed.keyId, sealedEmail: sealed.sealed, updatedAt: sql`now()` },
      });
  }
}

/** The addresses kept for `userIds` (absent: none kept). */
export async function recipientEmails(
  store: Store,
  userIds: readonly number[],
): Promise<Map<number, string | null>> {
  const result = new Map<number, string | null>();
  if (userIds.length === 0) return result;
  const rows = await store.db
    .select()
    .from(noticeRecipient)
    .where(inArray(noticeRecipient.userId, [...userIds]));
  for (const row of rows) {
    result.set(
      row.userId,
      store.sealer.open({ keyId: row.keyId, sealed: row.sealedEmail }, recipientContext(row.userId)),
    );
  }
  return result;
}
