import { fieldErrors } from '@wbs/shared';
import * as v from 'valibot';

export type Errors = Record<string, string>;

/** Runs a shared schema: `{ ok: true, value }` or `{ ok: false, errors }` (first message per field). */
export function validate<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): { ok: true; value: v.InferOutput<S>; errors: Errors } | { ok: false; errors: Errors } {
  const result = v.safeParse(schema, input);
  if (result.success) return { ok: true, value: result.output, errors: {} };
  return { ok: false, errors: fieldErrors(result.issues) };
}
