/**
 * Conditions on a case-index row's filing day (`filed_at`, WIB wall time 'YYYY-MM-DDTHH:mm:ss'),
 * said of the column itself: the wall times order as their days do (under C and the usual locale
 * collations alike), so `filed_at >= day` is "filed on that day or later". Said as
 * `left(filed_at, 10)`, the planner had no statistics for the expression, guessed a few hundred rows
 * of a company's 55,000 and looped over an index per row where a hash join was due (ADR 0069).
 */
import { addDays } from '@wbs/shared/handling-clock';
import { type SQL, type SQLWrapper, sql } from '../store/drizzle.ts';

/** Filed on `day` (YYYY-MM-DD) or later. */
export const filedFrom = (column: SQLWrapper, day: string): SQL => sql`${column} >= ${day}`;

/** Filed on `day` (YYYY-MM-DD) or earlier. */
export const filedUpTo = (column: SQLWrapper, day: string): SQL => sql`${column} < ${addDays(day, 1)}`;
