import type { CreatedAccountReply } from '@wbs/shared/api/partners';
import { ApiProblem } from '../errors.ts';

/**
 * A create call of PartnerMaster, CompanyMaster, PartnerStaffMaster or CompanyStaffMaster answers
 * `message: [success text, initial password]`: the new account's password travels only in this reply
 * (never logged), so the administrator can hand it over once.
 */
export function presentCreatedAccount(messages: readonly string[], id: number | null): CreatedAccountReply {
  const password = messages[1]?.trim();
  return { id, message: messages[0] ?? '', initialPassword: password ? password : null };
}

/** Legacy refusals of an account that name one field of our forms. */
const FIELD_OF_LEGACY_MESSAGE: Record<string, string> = {
  'Username sudah digunakan': 'username',
  'Email sudah digunakan': 'email',
};

/**
 * Runs a legacy create call of an account; a refusal naming a field (a username already taken)
 * becomes a `validation` problem with that field, so the form shows it under the field and not only
 * in a snackbar. Other refusals pass unchanged.
 */
export async function withAccountFieldErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiProblem) || error.type !== 'legacy-warning') throw error;
    const messages = error.extras.messages ?? [];
    const errors: Record<string, string> = {};
    for (const message of messages) {
      const field = FIELD_OF_LEGACY_MESSAGE[message];
      if (field && !errors[field]) errors[field] = message;
    }
    if (Object.keys(errors).length === 0) throw error;
    throw new ApiProblem('validation', { errors, messages, severity: 'warning' });
  }
}
