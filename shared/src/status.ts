/**
 * Case-status rules of spec section 4, derived from the legacy's status table (ids, orders and its
 * open-status list), never from status names: see docs/product/handling.md#case-workflow.
 */
import { STATUS_NEW_ID, STATUS_ROUTING_ID } from './constants.ts';

/** `open: false` marks a final status (absent from the legacy's GET /CaseStatus/Open). */
export type StatusLike = { id: number; name: string; order: number; open?: boolean };
export type BadgeColour = 'green' | 'yellow' | 'red' | 'blue';

const GREEN = new Set([2, 5, 8, 10]);
const YELLOW = new Set([3, 4, 6, 7, 9]);
const RED = new Set([11, 3.2]);

export function statusBadgeColour(order: number): BadgeColour {
  if (RED.has(order)) return 'red';
  if (GREEN.has(order)) return 'green';
  if (YELLOW.has(order)) return 'yellow';
  return 'blue';
}

/** True when the log form must route the case to a line (current status id 1 or 11). */
export function requiresCaseLine(currentStatusId: number): boolean {
  return currentStatusId === STATUS_NEW_ID || currentStatusId === STATUS_ROUTING_ID;
}

/** Final: the legacy does not list the status as open. A final status takes notes only. */
export function isFinalStatus(status: StatusLike): boolean {
  return status.open === false;
}

/**
 * Statuses a log entry may move a case to: same integer order as the current status or one higher,
 * never order 1. Status id 1 is treated as id 11 (a new case is first routed). A case in a final
 * status keeps it: the only choice is that status (a note after closing), never a change.
 */
export function nextStatusChoices<T extends StatusLike>(
  statuses: readonly T[],
  currentStatusId: number,
): T[] {
  const actual = statuses.find((s) => s.id === currentStatusId);
  if (actual && isFinalStatus(actual)) return [actual];
  const effectiveId = currentStatusId === STATUS_NEW_ID ? STATUS_ROUTING_ID : currentStatusId;
  const current = statuses.find((s) => s.id === effectiveId);
  if (!current) return [];
  const base = Math.trunc(current.order);
  return statuses
    .filter((s) => Math.trunc(s.order) !== 1)
    .filter((s) => Math.trunc(s.order) === base || Math.trunc(s.order) === base + 1)
    .sort((a, b) => a.order - b.order);
}

/** Preset status of the log form: 11 when the case is new or being routed. */
export function presetLogStatus(currentStatusId: number): number | null {
  return requiresCaseLine(currentStatusId) ? STATUS_ROUTING_ID : null;
}

/** Above status id 11 the case is routed for good: its line is no longer chosen in the log form. */
export function caseLineClosed(currentStatusId: number): boolean {
  return currentStatusId > STATUS_ROUTING_ID;
}

/** For a current status id above 11 the case line is sent as null (spec section 4). */
export function caseLineForLog(currentStatusId: number, chosenLineId: number | null): number | null {
  return caseLineClosed(currentStatusId) ? null : chosenLineId;
}
