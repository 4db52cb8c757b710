/**
 * The conversation of a case, in the store: messages sealed at rest, unread marks per side, and
 * idempotent posting. Everything here takes a case bound to its incarnation (case-binding.ts),
 * already checked against the caller's scope by the route, and keeps to that incarnation's rows.
 */
import { createHmac } from 'node:crypto';
import { type BoundCase, ofThisCase, unboundRowBelongs } from './case-binding.ts';
import { and, asc, count, eq, inArray, isNull, type SQL, sql } from './drizzle.ts';
import type { Store } from './plugin.ts';
import { type AuthorKind, caseConversation, caseMessage } from './schema.ts';

export type CaseRef = BoundCase;

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

/**
 * A case's conversation is capped PER SIDE, so no one can fill the store through one case, and a
 * reporter who used up its own side cannot silence the handlers (nor the other way round).
 */
export const MAX_MESSAGES_PER_SIDE = 500;

const contextOf = (ref: CaseRef, from: AuthorKind) => `case_message|${ref.companyId}|${ref.caseId}|${from}`;

const caseIs = (ref: CaseRef) =>
  and(eq(caseMessage.companyId, ref.companyId), eq(caseMessage.caseId, ref.caseId));

/** The messages of this incarnation, unbound ones included where case-binding.ts proves them its own. */
const boundTo = (ref: CaseRef): SQL => ofThisCase(ref, caseMessage.caseBinding, caseMessage.createdAt);

/**
 * The conversation, oldest first, decrypted. Rows of another incarnation of the case are left out
 * (and reported); unbound rows proven to be this incarnation's are bound now. A row of this case
 * that fails to open throws (SealError).
 */
export async function listMessages(store: Store, ref: CaseRef): Promise<StoredMessage[]> {
  const all = await store.db.select().from(caseMessage).where(caseIs(ref)).orderBy(asc(caseMessage.id));
  const rows: typeof all = [];
  const adopted: number[] = [];
  let foreign = 0;
  for (const row of all) {
    if (row.caseBinding === ref.binding) rows.push(row);
    else if (row.caseBinding === null && unboundRowBelongs(ref, row.createdAt)) {
      rows.push(row);
      adopted.push(row.id);
    } else foreign++;
  }
  if (adopted.length > 0) {
    await store.db
      .update(caseMessage)
      .set({ caseBinding: ref.binding })
      .where(and(inArray(caseMessage.id, adopted), isNull(caseMessage.caseBinding)));
  }
  if (foreign > 0) store.cases.mismatch('case_message', ref, foreign);
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

const NOTHING_SEEN: Seen = { handlerSeenId: 0, reporterSeenId: 0 };

/** The marks of this incarnation; an unbound row's ids are below any later incarnation's (case-binding.ts). */
export async function seenOf(store: Store, ref: CaseRef): Promise<Seen> {
  const [row] = await store.db
    .select({
      handlerSeenId: caseConversation.handlerSeenId,
      reporterSeenId: caseConversation.reporterSeenId,
      caseBinding: caseConversation.caseBinding,
    })
    .from(caseConversation)
    .where(and(eq(caseConversation.companyId, ref.companyId), eq(caseConversation.caseId, ref.caseId)));
  if (!row) return NOTHING_SEEN;
  if (row.caseBinding !== null && row.caseBinding !== ref.binding) {
    store.cases.mismatch('case_conversation', ref, 1);
    return NOTHING_SEEN;
  }
  return { handlerSeenId: row.handlerSeenId, reporterSeenId: row.reporterSeenId };
}

/**
 * Records that `side` has seen the conversation up to `messageId` (never moves backwards). The
 * marks of another incarnation of the case are replaced, not raised.
 */
export async function markSeen(store: Store, ref: CaseRef, side: AuthorKind, messageId: number) {
  if (messageId <= 0) return;
  const column = side === 'handler' ? 'handlerSeenId' : 'reporterSeenId';
  const other = side === 'handler' ? 'reporterSeenId' : 'handlerSeenId';
  const target = caseConversation[column];
  const ours = sql`(${caseConversation.caseBinding} is null or ${caseConversation.caseBinding} = ${ref.binding})`;
  await store.db
    .insert(caseConversation)
    .values({ companyId: ref.companyId, caseId: ref.caseId, caseBinding: ref.binding, [column]: messageId })
    .onConflictDoUpdate({
      target: [caseConversation.companyId, caseConversation.caseId],
      set: {
        [column]: sql`case when ${ours} then greatest(${target}, ${messageId}) else ${messageId} end`,
        [other]: sql`case when ${ours} then ${caseConversation[other]} else 0 end`,
        caseBinding: ref.binding,
      },
    });
}

export type PostResult =
  | { outcome: 'created' | 'replayed'; id: number }
  | { outcome: 'key-reused' }
  | { outcome: 'full'; limit: number };

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
  // Keys are the sender's own: each handler's, and the reporter's (tracker and pelapor are one person),
  // in this incarnation of the case only.
  const sender = author.kind === 'handler' ? `handler:${author.userId}` : 'reporter';
  const key =
    idempotency.key === null ? null : hmac('message-key', `${ref.binding}|${sender}|${idempotency.key}`);
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
  const [total] = await store.db
    .select({ n: count() })
    .from(caseMessage)
    .where(and(caseIs(ref), eq(caseMessage.authorKind, author.kind), boundTo(ref)));
  if ((total?.n ?? 0) >= MAX_MESSAGES_PER_SIDE) return { outcome: 'full', limit: MAX_MESSAGES_PER_SIDE };

  const sealed = store.sealer.seal(JSON.stringify(content), contextOf(ref, author.kind));
  const inserted = await store.db
    .insert(caseMessage)
    .values({
      companyId: ref.companyId,
      caseId: ref.caseId,
      caseBinding: ref.binding,
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
