import { useCallback, useState } from 'react';
import { ApiError } from '../api/client.ts';
import type { Errors } from './validate.ts';

/**
 * The field messages of one form, from its own validation or from the server: a `validation` problem
 * carries `errors: { field: message }` (ApiError.fieldErrors), shown under the field it names, not
 * only in the snackbar. Editing a field clears its message.
 */
export function useFormErrors() {
  const [errors, setErrors] = useState<Errors>({});
  /** Shows the server's field messages, if the error carries any; true when it did. */
  const showServer = useCallback((error: unknown): boolean => {
    if (!(error instanceof ApiError) || Object.keys(error.fieldErrors).length === 0) return false;
    setErrors(error.fieldErrors);
    return true;
  }, []);
  const clearField = useCallback((field: string) => {
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
  }, []);
  return { errors, setErrors, showServer, clearField };
}
