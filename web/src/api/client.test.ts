import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  api,
  errorFromResponse,
  fileNameFromDisposition,
  setUnauthorizedHandler,
} from './client.ts';

const problem = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/problem+json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
});

describe('api client', () => {
  it('parses a legacy warning problem into severity and messages', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        problem(422, {
          type: 'https://wbs.example/problems/legacy-warning',
          title: 'Legacy warning',
          status: 422,
          severity: 'warning',
          messages: ['Data tidak ditemukan', 'Data tidak ditemukan'],
        }),
      ),
    );
    const error = await api('/tracking', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect(e.status).toBe(422);
    expect(e.type).toBe('legacy-warning');
    expect(e.severity).toBe('warning');
    expect(e.messages).toEqual(['Data tidak ditemukan']);
  });

  it('keeps the field errors of a validation problem', () => {
    const e = errorFromResponse(
      400,
      'application/problem+json',
      JSON.stringify({
        type: 'https://wbs.example/problems/validation',
        detail: 'x',
        errors: { username: 'Username wajib diisi' },
      }),
    );
    expect(e.fieldErrors).toEqual({ username: 'Username wajib diisi' });
    expect(e.severity).toBe('error');
  });

  it('falls back to the standard status text for bodies that are not JSON', () => {
    expect(errorFromResponse(404, 'text/html', '<html>').messages).toEqual(['Not Found']);
    expect(errorFromResponse(500, null, '').messages).toEqual(['Internal Server Error']);
  });

  it('turns a failed fetch into Network Error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const error = (await api('/session').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(0);
    expect(error.message).toBe('Network Error');
  });

  it('sends JSON with same-origin credentials and reads the reply', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
      Response.json({ user: { id: 1 } }, { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const reply = await api<{ user: { id: number } }>('/session', {
      method: 'POST',
      body: { username: 'a' },
    });
    expect(reply.user.id).toBe(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/session');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"username":"a"}');
    expect((init?.headers as Record<string, string> | undefined)?.['Content-Type']).toBe('application/json');
  });

  it('reports a 401 to the unauthorized handler unless the call opts out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        problem(401, { type: 'https://wbs.example/problems/unauthorized', detail: 'Sesi habis' }),
      ),
    );
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    await api('/cases').catch(() => undefined);
    expect(handler).toHaveBeenCalledTimes(1);
    expect((handler.mock.calls[0]?.[0] as ApiError | undefined)?.messages).toEqual(['Sesi habis']);
    await api('/session', { authRedirect: false }).catch(() => undefined);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('answers undefined for 204', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(api('/session', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('reads file names from Content-Disposition', () => {
    expect(fileNameFromDisposition('attachment; filename="a b.pdf"')).toBe('a b.pdf');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''AllCases%20-%201.xlsx")).toBe(
      'AllCases - 1.xlsx',
    );
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
