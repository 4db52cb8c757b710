/** What the session tests share: who a cookie is signed in as, signing in a demo account, a reset. */
import { expect } from 'vitest';
import { browser, demoAccount, signIn, type TestApp } from './helpers.ts';

/** The user `GET /session` answers for the cookie (null: signed out). */
export async function who(t: TestApp, cookie: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/session', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json().user as { username: string } | null;
}

export const as = (t: TestApp, username: string) => signIn(t.app, username, demoAccount(username).password);

/** The company admin resets analyst 2's (analis.spi's) password, which ends the analyst's sessions. */
export async function resetAnalystPassword(t: TestApp, companyAdmin: string): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/analysts/2/password-reset',
    headers: browser(companyAdmin),
  });
  expect(res.statusCode).toBe(200);
}
