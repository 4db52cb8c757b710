import { act, cleanup, render } from '@testing-library/react';
import { SWRConfig, useSWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthBridge } from './AuthBridge.tsx';
import { ApiError, api } from './api/client.ts';
import { SESSION_KEY } from './api/session.ts';

const notifyError = vi.fn();
vi.mock('./ui/toaster.tsx', () => ({ notify: { error: (...args: unknown[]) => notifyError(...args) } }));
const overlay = vi.fn();
vi.mock('./ui/LoadingOverlay.tsx', () => {
  const loading = {
    show: (m?: string) => overlay('show', m),
    hide: () => overlay('hide'),
    progress: () => {},
  };
  return { useLoading: () => loading };
});

let cacheRef: Map<string, unknown> | null = null;
function CacheProbe() {
  cacheRef = useSWRConfig().cache as unknown as Map<string, unknown>;
  return null;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  notifyError.mockReset();
  overlay.mockReset();
});

function renderWithSession(user: unknown) {
  const provider = () => new Map<string, unknown>([[SESSION_KEY, { data: user }]]);
  return render(
    <SWRConfig value={{ provider: provider as never }}>
      <AuthBridge />
      <CacheProbe />
    </SWRConfig>,
  );
}

const unauthorized = () =>
  new Response(
    JSON.stringify({
      type: 'https://wbs.example/problems/unauthorized',
      title: 'x',
      status: 401,
      detail: 'Sesi Anda telah berakhir',
    }),
    {
      status: 401,
      headers: { 'content-type': 'application/problem+json' },
    },
  );

describe('AuthBridge', () => {
  it('on a 401 of a signed-in call clears the session, returns to / and shows the message', async () => {
    window.history.pushState(null, '', '/admin/case');
    const fetchMock = vi.fn(async (_request: Request) => unauthorized());
    vi.stubGlobal('fetch', fetchMock);
    renderWithSession({ id: 1, userTypeId: 2 });
    const failures: unknown[] = [];
    await act(async () => {
      // Several calls of one screen fail together: one sign-out, one message.
      await Promise.all(
        [
          api.POST('/api/v1/cases/search', { body: { from: '2026-05-01', to: '2026-05-31' } }),
          api.GET('/api/v1/dashboard/summary', {
            params: { query: { from: '2026-05-01', to: '2026-05-31' } },
          }),
          api.GET('/api/v1/case-statuses'),
        ].map((call) => call.catch((e) => failures.push(e))),
      );
      await new Promise((r) => setTimeout(r, 10));
    });
    expect(window.location.pathname).toBe('/');
    expect((cacheRef?.get(SESSION_KEY) as { data?: unknown } | undefined)?.data ?? null).toBeNull();
    expect(notifyError).toHaveBeenCalledTimes(1);
    expect(notifyError).toHaveBeenCalledWith(['Sesi Anda telah berakhir']);
    // Spec §8: the overlay 'Proses Logout' while the server logout runs, then gone.
    expect(overlay.mock.calls).toEqual([['show', 'Proses Logout'], ['hide']]);
    const requests = fetchMock.mock.calls.map(([request]) => request);
    expect(
      requests.filter((r) => new URL(r.url).pathname === '/api/v1/session' && r.method === 'DELETE'),
    ).toHaveLength(1);
    // The screens' own handlers stay quiet about it (notify.problem skips handled errors).
    expect(failures.every((e) => e instanceof ApiError && e.handled)).toBe(true);
  });

  it('ignores a 401 when nobody was signed in', async () => {
    window.history.pushState(null, '', '/case/create');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => unauthorized()),
    );
    renderWithSession(null);
    await act(async () => {
      await api.GET('/api/v1/case-statuses').catch(() => undefined);
    });
    expect(window.location.pathname).toBe('/case/create');
    expect(notifyError).not.toHaveBeenCalled();
  });
});
