/**
 * Walks EVERY registered route × every user type (1–6) and anonymous, and fails when a route has no
 * policy or answers differently from the permission matrix: allowed → neither 401 nor 403;
 * denied → 401 (anonymous) or 403 (signed in).
 */
import { USER_TYPE_IDS } from '@wbs/shared/constants';
import { ACTIONS, can, type Subject } from '@wbs/shared/permissions';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { sessionPlugin } from '../session/plugin.ts';
import { browser, buildTestApp, ORIGIN, signInAs, type TestApp } from '../test/helpers.ts';
import { policyPlugin } from './plugin.ts';

let t: TestApp;
const cookies = new Map<number, string>();
beforeAll(async () => {
  t = await buildTestApp({ DOCS_ENABLED: 'true' });
  for (const type of USER_TYPE_IDS) cookies.set(type, await signInAs(t.app, type));
});
afterAll(async () => t.close());

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');

describe('policy walk', () => {
  it('every registered route declares a known policy', () => {
    expect(t.routes.length).toBeGreaterThan(30);
    for (const route of t.routes) {
      expect([...ACTIONS, 'public'], `${route.method} ${route.url}`).toContain(route.policy);
    }
  });

  it('an API route without a policy stops the app from starting', async () => {
    const app = Fastify({ logger: false });
    const config = loadConfig({
      SESSION_SECRET: 'x'.repeat(40),
      SESSION_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64'),
    });
    app.register(sessionPlugin, { config });
    app.register(policyPlugin, {});
    app.register(async (scope) => {
      scope.get('/api/v1/oops', async () => 'no policy');
    });
    await expect(app.ready()).rejects.toThrow(/declares no policy/);
  });

  it('answers every route for every subject as the matrix says', async () => {
    const routes = t.routes
      .filter((r) => r.method !== 'HEAD')
      // Signing out last, so the walk keeps its sessions.
      .sort(
        (a, b) =>
          Number(a.url === '/api/v1/session' && a.method === 'DELETE') -
          Number(b.url === '/api/v1/session' && b.method === 'DELETE'),
      );
    const subjects: { name: string; subject: Subject; headers: Record<string, string> }[] = [
      { name: 'anonymous', subject: null, headers: { origin: ORIGIN } },
      ...USER_TYPE_IDS.map((type) => {
        const cookie = cookies.get(type)!;
        const claims = JSON.parse(Buffer.from(cookie.split('.')[1]!, 'base64url').toString());
        return {
          name: `type ${type}`,
          subject: { userTypeId: type, role: claims.u.role },
          get headers() {
            return browser(cookies.get(type)!);
          },
        };
      }),
    ];
    // Deleting or resetting a staff member ends that member's sessions (session registry): whoever
    // was signed out signs in again before the next route.
    const refreshEndedSessions = async () => {
      for (const type of USER_TYPE_IDS) {
        const me = await t.app.inject({
          method: 'GET',
          url: '/api/v1/session',
          headers: browser(cookies.get(type)!),
        });
        if (me.json().user === null) cookies.set(type, await signInAs(t.app, type));
      }
    };
    const mismatches: string[] = [];
    for (const route of routes) {
      for (const { name, subject, headers } of subjects) {
        const allowed = route.policy === 'public' || can(subject, route.policy);
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: concrete(route.url),
          headers,
          ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
        });
        // Back to the seed after anything that may change data: the walk's calls with id 1 would
        // otherwise reset the password of, or delete, a demo account signed in here (legacy-sim then
        // refuses its token). legacy-sim tokens outlive a reset.
        if (route.method !== 'GET') {
          await t.legacy.reset();
          if (/analysts|partner-staff|second-factor-reset/.test(route.url)) await refreshEndedSessions();
        }
        const refused = res.statusCode === 401 || res.statusCode === 403;
        const expected = subject === null ? 401 : 403;
        if (allowed && refused)
          mismatches.push(`${name} ${route.method} ${route.url}: allowed but ${res.statusCode}`);
        if (!allowed && res.statusCode !== expected) {
          mismatches.push(`${name} ${route.method} ${route.url}: denied but ${res.statusCode}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 60_000);
});
