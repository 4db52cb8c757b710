/**
 * The ONE rule for every date input of the API (docs/product/handling.md#dates): a calendar day written YYYY-MM-DD
 * within SUPPORTED_DAYS (2000-01-01 to 2099-12-31), and `from` not after `to` where a request has
 * both. The case search and export, the dashboard ranges and the audit-trail export all build their
 * dates from here, so a new date input cannot take another rule by accident.
 */
import * as v from 'valibot';
import { isSupportedIsoDate, isValidIsoDate, SUPPORTED_DAYS } from '../dates.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';

/**
 * A required day. A missing key is validated as '', so it gets the field's own "wajib diisi" text;
 * the checks run in order and the first failing one names the field's error (format, then calendar,
 * then range).
 */
export const apiDay = (requiredMessage: string) =>
  v.optional(
    v.pipe(
      v.string(requiredMessage),
      v.trim(),
      v.nonEmpty(requiredMessage),
      v.regex(/^\d{4}-\d{2}-\d{2}$/, M.dateInvalid),
      v.check(isValidIsoDate, M.dateInvalid),
      v.check(isSupportedIsoDate, M.dateOutOfRange),
      v.description(
        `Tanggal kalender YYYY-MM-DD, dari ${SUPPORTED_DAYS.min} sampai ${SUPPORTED_DAYS.max} (inklusif).`,
      ),
    ),
    '',
  );

/** `from` and `to` of a period, each an apiDay with its own "wajib diisi" text. */
export const periodEntries = {
  from: apiDay(M.dateFromRequired),
  to: apiDay(M.dateToRequired),
};

/** from ≤ to; a day that is itself refused is reported by its own field, not twice. */
export const periodOrdered = (input: { from: string; to: string }): boolean =>
  !isSupportedIsoDate(input.from) || !isSupportedIsoDate(input.to) || input.from <= input.to;
