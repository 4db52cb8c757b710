/**
 * What the legacy's replies mean beyond their envelope, in one place: a create call's new id, and the
 * refusals that mean "no such record here" (a detail or lookup of an id or number it does not have).
 */
import * as v from 'valibot';
import { ApiProblem } from '../errors.ts';

/** The legacy `data` of a create call: the new record, of which only its id (under `idKey`) is read. */
export const createdRecord = (idKey: string) =>
  v.optional(
    v.nullable(v.looseObject({ [idKey]: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) })),
    null,
  );

export function createdId(data: Record<string, unknown> | null | undefined, idKey: string): number | null {
  const id = data?.[idKey];
  return typeof id === 'number' ? id : null;
}

/** A create call's outcome: the new record's id (null when the legacy answered none) and its messages. */
export type Created = { id: number | null; messages: string[] };

/** An update or delete call's outcome: the legacy's messages (the first one is its success text). */
export type Done = { messages: string[] };

/**
 * Legacy answers meaning "no such record here": HTTP 404, and code 0/-1 envelopes (the legacy answers
 * an unknown id or a wrong tracking password with a warning or error, not a 404).
 */
const MISSING = new Set(['not-found', 'legacy-warning', 'legacy-error']);

function isMissing(error: unknown): boolean {
  return error instanceof ApiProblem && MISSING.has(error.type);
}

/** The record, or null when the legacy says it has no such record; every other failure passes. */
export async function orMissing<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}
