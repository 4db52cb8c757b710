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

/**
 * An instant of the API, WIB wall time '2026-05-03T08:15:00' (docs/api-contract.md, "Timestamps"), as
 * shown: '03/05/2026 08:15' (DD/MM/YYYY), whatever the browser's zone. A time that carries its own
 * offset ('…Z', '…+07:00') is first brought to WIB, so no reply can show another zone's clock.
 */
export function formatDateTime(wallTime: string): string {
  const text = /(?:Z|[+-]\d{2}:?\d{2})$/.test(wallTime) ? toWibWallTime(wallTime) : wallTime;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(text);
  if (!match) return wallTime;
  const [, y, m, d, hh, mm] = match;
  return hh ? `${d}/${m}/${y} ${hh}:${mm}` : `${d}/${m}/${y}`;
}

const WIB_OFFSET_MS = 7 * 60 * 60 * 1000;

/** A zoned ISO instant as WIB wall time; left as it is when it is no instant. */
function toWibWallTime(instant: string): string {
  const ms = Date.parse(instant);
  return Number.isNaN(ms) ? instant : new Date(ms + WIB_OFFSET_MS).toISOString().slice(0, 19);
}

/**
 * The hidden reporter's e-mail and phone in clear, for a handler allowed to write activity logs, with
 * the reason it states (the gateway records the reveal). The caller keeps the values in memory only.
 */
export async function revealContact(caseId: number, reason: string): Promise<ContactRevealReply> {
  const reply = await api.POST('/api/v1/cases/{id}/contact-reveal', {
    params: { path: { id: String(caseId) } },
    body: { reason },
  });
  return v.parse(contactRevealReply, reply);
}
