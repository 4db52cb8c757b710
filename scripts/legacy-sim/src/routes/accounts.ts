/** Shared by partner, company and staff creation: username/email checks and the new WBS user. */
import type { Ctx } from '../context.ts';
import { hashPassword, randomPassword } from '../passwords.ts';
import type { User } from '../types.ts';
import { type Bag, EMAIL, str } from './util.ts';

export function accountErrors(ctx: Ctx, b: Bag, usernameMessage = 'Username wajib diisi'): string[] {
  const errors: string[] = [];
  const username = str(b, 'username');
  const email = str(b, 'email');
  if (!username) errors.push(usernameMessage);
  else if (ctx.store.usersByName.has(username.toLowerCase())) errors.push('Username sudah digunakan');
  if (!email) errors.push('Email wajib diisi');
  else if (!EMAIL.test(email)) errors.push('Email tidak valid');
  return errors;
}

/** Creates the WBS user with a random initial password; returns it with the plain password. */
export async function createAccount(
  ctx: Ctx,
  b: Bag,
  userTypeId: number,
  role: number,
  links: Partial<User>,
): Promise<{ user: User; password: string }> {
  const password = randomPassword();
  const user: User = {
    wbsUserId: ctx.store.nextId('user'),
    wbsUserName: str(b, 'username'),
    wbsUserEmail: str(b, 'email'),
    wbsUserUserTypeId: userTypeId,
    wbsUserRole: role,
    wbsUserInitPassword: 1,
    passwordHash: await hashPassword(password),
    initialPassword: password,
    partnerId: null,
    partnerStaffId: null,
    partnerStaffPartnerId: null,
    companyId: null,
    companyStaffId: null,
    companyStaffCompanyId: null,
    whistleblowerId: null,
    whistleblowerCompanyId: null,
    ...links,
  };
  ctx.store.addUser(user);
  return { user, password };
}
