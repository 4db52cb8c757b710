/**
 * The case detail as the screens read it (GET /cases/{id}, POST /tracking): exactly the shared
 * contract shape of `@wbs/shared/api/cases`. The gateway has already applied every privacy rule
 * (masked notes, withheld names); this module only checks the shape and formats dates.
 */
import {
  type CaseDetail,
  type CaseDetailAttachment,
  type CaseLogEntry,
  caseDetailSchema,
} from '@wbs/shared/api/cases';
import { type ContactRevealReply, contactRevealReply } from '@wbs/shared/api/contact-reveal';
import * as v from 'valibot';
import { api } from '../api/client.ts';

export type { CaseDetail };
export type CaseLog = CaseLogEntry;
export type CaseAttachment = CaseDetailAttachment;
export type CaseInvolved = CaseDetail['allegedlyInvolved'][number];

/** The reply of GET /cases/{id} or POST /tracking, checked against the contract (throws if it is not one). */
export function normaliseCaseDetail(input: unknown): CaseDetail {
  return v.parse(caseDetailSchema, input);
}

/** '2026-05-03T08:15:00' → '03/05/2026 08:15' (display format DD/MM/YYYY). */
export function formatDateTime(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(iso);
  if (!match) return iso;
  const [, y, m, d, hh, mm] = match;
  return hh ? `${d}/${m}/${y} ${hh}:${mm}` : `${d}/${m}/${y}`;
}

/**
 * The hidden reporter's e-mail and phone in clear, for a handler allowed to write activity logs, with
 * the reason it states (the gateway records the reveal). The caller keeps the values in memory only.
 */
export async function revealContact(caseId: number, reason: string): Promise<ContactRevealReply> {
  const reply = await api<unknown>(`/cases/${caseId}/contact-reveal`, { method: 'POST', body: { reason } });
  return v.parse(contactRevealReply, reply);
}
