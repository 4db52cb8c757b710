/**
 * The conversation of a case, in the store: messages sealed at rest, unread marks per side, and
 * idempotent posting. Everything here takes a case as `{ companyId, caseId }` already checked
 * against the caller's scope by the route.
 */
import { createHmac } from 'node:crypto';
import { and, asc, count, eq, gt, inArray, sql } from './drizzle.ts';
import type { Store } from './plugin.ts';
import { type AuthorKind, caseConversation, caseMessage } from './schema.ts';

export type CaseRef = { companyId: number; caseId: number };

/** What a message holds, sealed as one JSON value (nothing of it is readable in a dump). */
export type MessageContent = {
  text: string;
  /** File references added with the message (Tambah Bukti); none yet. */
  files?: { name: string; ref: string }[];
  /** The handler's display name when written (staff see who wrote what); never for the reporter. */
  authorName?: string;
};

export type StoredMessage = {
  id: number;
  from: AuthorKind;
  authorUserType: number | null;
  content: MessageContent;
  createdAt: Date;
};

export type Author =
  | { kind: 'reporter' }
  | { kind: 'handler'; userId: number; userType: number; name: string };

/** A case's conversation is capped, so no one can fill the store through one case. */
export const MAX_MESSAGES_PER_CASE = 1000;

const contextOf = (ref: CaseRef, from: AuthorKind) => `case_message|${ref.companyId}|${ref.caseId}|${from}`;

const caseIs = (ref: CaseRef) =>
  and(eq(caseMessage.companyId, ref.companyId), eq(caseMessage.caseId, ref.caseId));

/** The conversation, oldest first, decrypted. A row that fails to open throws (SealError). */
export async function listMessages(store: Store, ref: CaseRef): Promise<StoredMessage[]> {
  const rows = await store.db.select().from(caseMessage).where(caseIs(ref)).orderBy(asc(caseMessage.id));
  return rows.map((row) => ({
    id: row.id,
    from: row.authorKind,
    authorUserType: row.authorUserType,
    content: JSON.parse(
      store.sealer.open({ keyId: row.keyId, sealed: row.sealed }, contextOf(ref, row.authorKind)),
    ) as MessageContent,
    createdAt: row.createdAt,
  }));
}

export type Seen = { handlerSeenId: number; reporterSeenId: number };

export async function seenOf(store: Store, ref: CaseRef): Promise<Seen> {
  const [row] = await store.db
    .select({
      handlerSeenId: caseConversation.handlerSeenId,
      reporterSeenId: caseConversation.reporterSeenId,
    })
    .from(caseConversation)
    .where(and(eq(caseConversation.companyId, ref.companyId), eq(caseConversation.caseId, ref.caseId)));
  return row ?? { handlerSeenId: 0, reporterSeenId: 0 };
}

/** Records that `side` has seen the conversation up to `messageId` (never moves backwards). */
export async function markSeen(store: Store, ref: CaseRef, side: AuthorKind, messageId: number) {
  if (messageId <= 0) return;
  const column = side === 'handler' ? 'handlerSeenId' : 'reporterSeenId';
  const target = caseConversation[column];
  await store.db
    .insert(caseConversation)
    .values({ ...ref, [column]: messageId })
    .onConflictDoUpdate({
      target: [caseConversation.companyId, caseConversation.caseId],
      set: { [column]: sql`greatest(${target}, ${messageId})` },
    });
}

export type PostResult =
  | { outcome: 'created' | 'replayed'; id: number }
  | { outcome: 'key-reused' }
  | { outcome: 'full' };

/**
 * Stores one message. With an idempotency key the same (case, side, key) is stored once: a retry
 * with the same content gets the first message's id (`replayed`), other content `key-reused`.
 * Keys and content are kept only as HMACs (keyed with `hmacKey`).
 */
export async function postMessage(
  store: Store,
  ref: CaseRef,
  author: Author,
  content: MessageContent,
  idempotency: { key: string | null; hmacKey: string },
): Promise<PostResult> {
  const hmac = (label: string, value: string) =>
    createHmac('sha256', idempotency.hmacKey).update(`${label}|${value}`).digest('base64url');
  // Keys are the sender's own: each handler's, and the reporter's (tracker and pelapor are one person).
  const sender = author.kind === 'handler' ? `handler:${author.userId}` : 'reporter';
  const key = idempotency.key === null ? null : hmac('message-key', `${sender}|${idempotency.key}`);
  const fingerprint = hmac(
    'message-content',
    JSON.stringify({ text: content.text, files: content.files ?? [] }),
  );
  const existing = async () => {
    if (key === null) return null;
    const [row] = await store.db
      .select({ id: caseMessage.id, fingerprint: caseMessage.fingerprint })
      .from(caseMessage)
      .where(and(caseIs(ref), eq(caseMessage.authorKind, author.kind), eq(caseMessage.idempotencyKey, key)));
    return row ?? null;
  };
  const replay = (row: { id: number; fingerprint: string | null }): PostResult =>
    row.fingerprint === fingerprint ? { outcome: 'replayed', id: row.id } : { outcome: 'key-reused' };

  const earlier = await existing();
  if (earlier) return replay(earlier);
  const [total] = await store.db.select({ n: count() }).from(caseMessage).where(caseIs(ref));
  if ((total?.n ?? 0) >= MAX_MESSAGES_PER_CASE) return { outcome: 'full' };

  const sealed = store.sealer.seal(JSON.stringify(content), contextOf(ref, author.kind));
  const inserted = await store.db
    .insert(caseMessage)
    .values({
      ...ref,
      authorKind: author.kind,
      authorUserId: author.kind === 'handler' ? author.userId : null,
      authorUserType: author.kind === 'handler' ? author.userType : null,
      keyId: sealed.keyId,
      sealed: sealed.sealed,
      idempotencyKey: key,
      fingerprint: key === null ? null : fingerprint,
    })
    .onConflictDoNothing()
    .returning({ id: caseMessage.id });
  const created = inserted[0];
  if (created) {
    // The author has seen their own message (and everything before it).
    await markSeen(store, ref, author.kind, created.id);
    return { outcome: 'created', id: created.id };
  }
  // A parallel copy of the same post won the insert.
  const winner = await existing();
  if (!winner) throw new Error('idempotent insert lost to a row that is not there');
  return replay(winner);
}

/** Per case of `caseIds` (in `companyId`): how many reporter messages no handler has read yet. */
export async function unreadFromReporter(
  store: Store,
  companyId: number,
  caseIds: number[],
): Promise<{ caseId: number; unread: number }[]> {
  if (caseIds.length === 0) return [];
  const rows = await store.db
    .select({ caseId: caseMessage.caseId, unread: count() })
    .from(caseMessage)
    .leftJoin(
      caseConversation,
      and(
        eq(caseConversation.companyId, caseMessage.companyId),
        eq(caseConversation.caseId, caseMessage.caseId),
      ),
    )
    .where(
      and(
        eq(caseMessage.companyId, companyId),
        inArray(caseMessage.caseId, caseIds),
        eq(caseMessage.authorKind, 'reporter'),
        gt(caseMessage.id, sql`coalesce(${caseConversation.handlerSeenId}, 0)`),
      ),
    )
    .groupBy(caseMessage.caseId)
    .orderBy(asc(caseMessage.caseId));
  return rows.map((row) => ({ caseId: row.caseId, unread: Number(row.unread) }));
}
