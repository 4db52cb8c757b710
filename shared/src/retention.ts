/**
 * Retention of personal data (docs/product/retention.md; UU 27/2022 on personal data protection,
 * articles 42-44): how long the gateway keeps a case's personal data after the case reached a final
 * status, and when a case waiting in the disposal register counts as overdue.
 */

/** The group default when RETENTION_MONTHS is not set. */
export const DEFAULT_RETENTION_MONTHS = 12;
/** What a retention period (the configuration's or a company's own) may be, in months. */
export const RETENTION_MONTHS_RANGE = { min: 1, max: 120 } as const;
/**
 * A case whose retention period ended waits in the register for the officer to destroy it in the
 * legacy; after this many days of waiting it is overdue (the landing screen warns).
 */
export const DISPOSAL_GRACE_DAYS = 30;
/** The officer's note when marking a case destroyed. */
export const DISPOSAL_NOTE_MAX = 500;

export type DisposalState = 'waiting' | 'overdue' | 'destroyed';
