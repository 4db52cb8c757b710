/**
 * How the case view reaches the store's routes (Pesan, identity-access history, Tambah Bukti): the
 * tracker proves number and password in every POST body (held in this view's memory only, never in
 * a URL or storage); signed-in users name the case id and the session cookie does the rest.
 */
import {
  type ConversationReply,
  conversationReply,
  type IdentityAccessReply,
  identityAccessReply,
  type PostMessageReply,
  postMessageReply,
} from '@wbs/shared/api/messages';
import * as v from 'valibot';
import { ApiError, api, upload } from '../../api/client.ts';

export type CaseAccess =
  | { kind: 'tracker'; caseNumber: string; password: string }
  | { kind: 'case'; caseId: number };

const proof = (access: Extract<CaseAccess, { kind: 'tracker' }>) => ({
  caseNumber: access.caseNumber,
  password: access.password,
});

export async function fetchConversation(access: CaseAccess): Promise<ConversationReply> {
  const reply =
    access.kind === 'tracker'
      ? await api<unknown>('/tracking/conversation', {
          method: 'POST',
          body: proof(access),
          authRedirect: false,
        })
      : await api<unknown>(`/cases/${access.caseId}/messages`);
  return v.parse(conversationReply, reply);
}

export async function fetchIdentityAccess(access: CaseAccess): Promise<IdentityAccessReply> {
  const reply =
    access.kind === 'tracker'
      ? await api<unknown>('/tracking/identity-access', {
          method: 'POST',
          body: proof(access),
          authRedirect: false,
        })
      : await api<unknown>(`/cases/${access.caseId}/identity-access`);
  return v.parse(identityAccessReply, reply);
}

/** A fresh key per message the user sends; every retry of that message reuses it. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

/** Worth sending again with the same key: no answer, or the server (not the message) failed. */
export function isRetryable(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504)
  );
}

const RETRY_DELAYS_MS = [600, 1500];

/**
 * Sends one message, retrying a lost answer with the SAME Idempotency-Key, so a message that did
 * arrive is stored once however often the answer was lost.
 */
export async function sendMessage(access: CaseAccess, text: string, key: string): Promise<PostMessageReply> {
  const send = () =>
    access.kind === 'tracker'
      ? api<unknown>('/tracking/messages', {
          method: 'POST',
          body: { ...proof(access), text },
          headers: { 'Idempotency-Key': key },
          authRedirect: false,
        })
      : api<unknown>(`/cases/${access.caseId}/messages`, {
          method: 'POST',
          body: { text },
          headers: { 'Idempotency-Key': key },
        });
  for (let attempt = 0; ; attempt += 1) {
    try {
      return v.parse(postMessageReply, await send());
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** Tambah Bukti: the chosen files as `attachments` parts (the tracker's proof as text parts first). */
export async function addEvidence(
  access: CaseAccess,
  files: readonly File[],
  key: string,
  onProgress?: (fraction: number) => void,
): Promise<unknown> {
  const form = new FormData();
  if (access.kind === 'tracker') {
    form.append('caseNumber', access.caseNumber);
    form.append('password', access.password);
  }
  for (const file of files) form.append('attachments', file, file.name);
  const path = access.kind === 'tracker' ? '/tracking/attachments' : `/cases/${access.caseId}/attachments`;
  return upload<unknown>(path, form, {
    headers: { 'Idempotency-Key': key },
    authRedirect: access.kind !== 'tracker',
    ...(onProgress ? { onProgress } : {}),
  });
}

/** A stable identity of the access (the view rebuilds the object on every render). */
export function accessKey(access: CaseAccess): string {
  return access.kind === 'tracker' ? `t:${access.caseNumber}:${access.password}` : `c:${access.caseId}`;
}
