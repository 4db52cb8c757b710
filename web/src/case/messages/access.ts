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
import { UPLOAD_DRAFT_HEADER } from '@wbs/shared/api/uploads';
import * as v from 'valibot';
import { ApiError, type ApiReply, api, upload } from '../../api/client.ts';

export type CaseAccess =
  | { kind: 'tracker'; caseNumber: string; password: string }
  | { kind: 'case'; caseId: number };

const caseId = (access: Extract<CaseAccess, { kind: 'case' }>) => ({
  params: { path: { id: String(access.caseId) } },
});

const proof = (access: Extract<CaseAccess, { kind: 'tracker' }>) => ({
  caseNumber: access.caseNumber,
  password: access.password,
});

export async function fetchConversation(access: CaseAccess): Promise<ConversationReply> {
  const reply =
    access.kind === 'tracker'
      ? await api.POST('/api/v1/tracking/conversation', { body: proof(access), authRedirect: false })
      : await api.GET('/api/v1/cases/{id}/messages', caseId(access));
  return v.parse(conversationReply, reply);
}

export async function fetchIdentityAccess(access: CaseAccess): Promise<IdentityAccessReply> {
  const reply =
    access.kind === 'tracker'
      ? await api.POST('/api/v1/tracking/identity-access', { body: proof(access), authRedirect: false })
      : await api.GET('/api/v1/cases/{id}/identity-access', caseId(access));
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
      ? api.POST('/api/v1/tracking/messages', {
          body: { ...proof(access), text },
          headers: { 'Idempotency-Key': key },
          authRedirect: false,
        })
      : api.POST('/api/v1/cases/{id}/messages', {
          ...caseId(access),
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

/** The case's attachments after Tambah Bukti (the tracker's route answers the same). */
export type EvidenceReply = ApiReply<'post', '/api/v1/cases/{id}/attachments'>;

/**
 * Opens Tambah Bukti's draft of resumable uploads (resumableUploads.ts), bound at the gateway to this
 * case and this caller: the tracker proves number and password as for every tracker call.
 */
export function openEvidenceDraft(access: CaseAccess): Promise<{ token: string }> {
  return access.kind === 'tracker'
    ? api.POST('/api/v1/tracking/attachments/upload-drafts', { body: proof(access), authRedirect: false })
    : api.POST('/api/v1/cases/{id}/attachments/upload-drafts', caseId(access));
}

/**
 * Tambah Bukti: the chosen files as `attachments` parts (the tracker's proof as text parts first); or,
 * when they were uploaded into a draft (`draftToken`), only the text parts and the draft's header.
 */
export async function addEvidence(
  access: CaseAccess,
  files: readonly File[],
  key: string,
  onProgress?: (fraction: number) => void,
  draftToken: string | null = null,
): Promise<EvidenceReply> {
  const form = new FormData();
  if (access.kind === 'tracker') {
    form.append('caseNumber', access.caseNumber);
    form.append('password', access.password);
  }
  if (draftToken === null) for (const file of files) form.append('attachments', file, file.name);
  const headers: Record<string, string> = { 'Idempotency-Key': key };
  if (draftToken !== null) headers[UPLOAD_DRAFT_HEADER] = draftToken;
  const options = { headers, ...(onProgress ? { onProgress } : {}) };
  return access.kind === 'tracker'
    ? upload('/api/v1/tracking/attachments', form, { ...options, authRedirect: false })
    : upload('/api/v1/cases/{id}/attachments', form, { ...options, ...caseId(access) });
}

/** A stable identity of the access (the view rebuilds the object on every render). */
export function accessKey(access: CaseAccess): string {
  return access.kind === 'tracker' ? `t:${access.caseNumber}:${access.password}` : `c:${access.caseId}`;
}
