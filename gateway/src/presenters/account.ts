import type { CreatedAccountReply } from '@wbs/shared/api/partners';

/**
 * A create call of PartnerMaster, CompanyMaster, PartnerStaffMaster or CompanyStaffMaster answers
 * `message: [success text, initial password]`: the new account's password travels only in this reply
 * (never logged), so the administrator can hand it over once.
 */
export function presentCreatedAccount(messages: readonly string[]): CreatedAccountReply {
  const password = messages[1]?.trim();
  return { message: messages[0] ?? '', initialPassword: password ? password : null };
}
