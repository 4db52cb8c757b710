/**
 * A fake gateway for the web's component tests: stubs global `fetch` (the typed client hands it a
 * `Request`), records every call and answers from a table keyed `'METHOD /path?query'`, the path
 * without `/api/v1`; a reply under 300 is `application/json`, any other `application/problem+json`.
 * Test-only: imported by *.test.tsx files alone, never by the app.
 */
import { vi } from 'vitest';

export type Reply = { status: number; body?: unknown };
/** One request as the gateway saw it: its JSON body parsed, or null when it had none. */
export type Call = { method: string; path: string; body: unknown };
/** Each route gets the request's parsed body; a test names its shape: `(body: { code: string }) => …`. */
export type Routes = Record<string, (body: never) => Reply>;

export type GatewayOptions = {
  /**
   * Whether the query string is part of the path the routes are keyed on and the calls record (the
   * default: `'GET /partners?page=1&pageSize=10'`); `false` answers and records `'GET /partners'`
   * whatever the query, for a screen whose queries the test does not care about.
   */
  query?: boolean;
  /**
   * The answer to a call no route names, or a function of its key (`'GET /session'`) and body that
   * picks one. By default a 404 problem, which the screens treat as any refusal.
   */
  otherwise?: Reply | ((key: string, body: unknown) => Reply);
};

const NOT_FOUND: Reply = { status: 404, body: { type: 'x/not-found', title: 'Data Tidak Ditemukan' } };

/** A route that always answers 200 with this body. */
export const ok = (body: unknown) => () => ({ status: 200, body });

/** Stubs `fetch` until `vi.unstubAllGlobals()`; returns the calls, in order, as they come. */
export function fakeGateway(routes: Routes, options: GatewayOptions = {}): Call[] {
  const { query = true, otherwise = NOT_FOUND } = options;
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      const path = `${url.pathname}${query ? url.search : ''}`.replace('/api/v1', '');
      const text = await request.text();
      const body: unknown = text ? JSON.parse(text) : null;
      calls.push({ method: request.method, path, body });
      const key = `${request.method} ${path}`;
      const reply =
        routes[key]?.(body as never) ?? (typeof otherwise === 'function' ? otherwise(key, body) : otherwise);
      // A 204 carries no body (a Response refuses one).
      return new Response(reply.status === 204 ? null : JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'content-type': reply.status < 300 ? 'application/json' : 'application/problem+json' },
      });
    }),
  );
  return calls;
}
