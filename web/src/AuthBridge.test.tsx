import { act, cleanup, render } from '@testing-library/react';
import { SWRConfig, useSWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthBridge } from './AuthBridge.tsx';
import { api } from './api/client.ts';
import { SESSION_KEY } from './api/session.ts';

const notifyError = vi.fn();
vi.mock('./ui/toaster.tsx', () => ({ notify: { error: (...args: unknown[]) => notifyError(...args) } }));

let cacheRef: Map<string, unknown> | null = null;
function CacheProbe() {
  cacheRef = useSWRConfig().cache as unknown as Map<string, unknown>;
  return null;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  notifyError.mockReset();
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
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => unauthorized()),
    );
    renderWithSession({ id: 1, userTypeId: 2 });
    await act(async () => {
      await api('/cases').catch(() => undefined);
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(window.location.pathname).toBe('/');
    expect((cacheRef?.get(SESSION_KEY) as { data?: unknown } | undefined)?.data ?? null).toBeNull();
    expect(notifyError).toHaveBeenCalledWith(['Sesi Anda telah berakhir']);
  });

  it('ignores a 401 when nobody was signed in', async () => {
    window.history.pushState(null, '', '/case/create');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => unauthorized()),
    );
    renderWithSession(null);
    await act(async () => {
      await api('/cases').catch(() => undefined);
    });
    expect(window.location.pathname).toBe('/case/create');
    expect(notifyError).not.toHaveBeenCalled();
  });
});
