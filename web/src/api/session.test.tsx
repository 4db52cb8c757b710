import { act, cleanup, render } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiError, setUnauthorizedHandler } from './client.ts';
import { useSession } from './session.ts';

const user = { id: 7, username: 'holding', displayName: 'Holding', userTypeId: 3, role: 1 };
let probe: { user: unknown; passwordChangeRequired: boolean } = { user, passwordChangeRequired: false };
let revalidate: (() => Promise<unknown>) | null = null;

function Probe() {
  const { user: shown, mutate } = useSession();
  revalidate = () => mutate();
  return <p>{shown ? shown.username : 'tamu'}</p>;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
});

describe('useSession', () => {
  it('treats a signed-out probe as an ordinary answer, and a session gone under a shown user as ended', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(probe)),
    );
    const ended = vi.fn<(error: ApiError) => void>();
    setUnauthorizedHandler(ended);
    const view = render(
      <SWRConfig value={{ provider: () => new Map() }}>
        <Probe />
      </SWRConfig>,
    );
    await view.findByText('holding');
    // Signed out elsewhere: the next probe answers 200 with nobody; the app announces the ended session
    // (overlay, logout, message) instead of silently dropping the user.
    probe = { user: null, passwordChangeRequired: false };
    await act(async () => {
      await revalidate?.();
    });
    expect(ended).toHaveBeenCalledTimes(1);
    expect(ended.mock.calls[0]?.[0]).toMatchObject({ status: 401, type: 'unauthorized' });
    expect(ended.mock.calls[0]?.[0].messages[0]).toMatch(/^Sesi Anda telah berakhir/);
  });
});
