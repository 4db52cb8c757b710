import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  api,
  download,
  errorFromResponse,
  fileNameFromDisposition,
  read,
  setStepUpHandler,
  setUnauthorizedHandler,
} from './client.ts';

const problem = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/problem+json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(null);
  setStepUpHandler(null);
});

const stepUpRequired = () =>
  problem(401, {
    type: 'https://wbs.example/problems/step-up-required',
    title: 'Untuk tindakan ini, verifikasi ulang dengan faktor kedua Anda',
    status: 401,
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
    const error = await api
      .POST('/api/v1/tracking', { body: { caseNumber: 'WBS-12345678', password: 'x' } })
      .catch((e: unknown) => e);
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

  it("keeps a problem's title apart from its detail; without a title, the status text", () => {
    const e = errorFromResponse(
      400,
      'application/problem+json',
      JSON.stringify({
        type: 'https://wbs.example/problems/validation',
        title: 'Data yang dikirim tidak valid',
        detail: 'Username wajib diisi',
        errors: { username: 'Username wajib diisi' },
      }),
    );
    expect(e.title).toBe('Data yang dikirim tidak valid');
    expect(e.messages).toEqual(['Username wajib diisi']);
    expect(errorFromResponse(404, 'text/html', '<html>').title).toBe('Not Found');
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
    const error = (await api.GET('/api/v1/session').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(0);
    expect(error.message).toBe('Network Error');
  });

  it('sends JSON with same-origin credentials and reads the reply', async () => {
    const fetchMock = vi.fn(async (_request: Request) => Response.json({ user: { id: 1 } }, { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const reply = await api.POST('/api/v1/session', { body: { username: 'a', password: 'b' } });
    expect('user' in reply && reply.user.id).toBe(1);
    const request = fetchMock.mock.calls[0]?.[0];
    expect(new URL(request?.url ?? '').pathname).toBe('/api/v1/session');
    expect(request?.method).toBe('POST');
    expect(request?.credentials).toBe('same-origin');
    expect(await request?.text()).toBe('{"username":"a","password":"b"}');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.headers.get('Accept')).toBe('application/json');
  });

  it("fills path parameters and sends the caller's headers (the Idempotency-Key of a message)", async () => {
    const fetchMock = vi.fn(async (_request: Request) =>
      Response.json({ message: { id: 1 } }, { status: 201 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await api.POST('/api/v1/cases/{id}/messages', {
      params: { path: { id: '42' } },
      body: { text: 'Halo' },
      headers: { 'Idempotency-Key': 'k-123456789' },
    });
    const request = fetchMock.mock.calls[0]?.[0];
    expect(new URL(request?.url ?? '').pathname).toBe('/api/v1/cases/42/messages');
    expect(request?.headers.get('Idempotency-Key')).toBe('k-123456789');
  });

  it('passes an abort on as it is, not as Network Error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        if (request.signal.aborted) throw new DOMException('Aborted', 'AbortError');
        return Response.json({});
      }),
    );
    const controller = new AbortController();
    controller.abort();
    const error = await api.GET('/api/v1/session', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
  });

  it('answers 502 for a success reply that is not JSON', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } })),
    );
    const error = (await api.GET('/api/v1/case-statuses').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.type).toBe('bad-reply');
  });

  it('downloads through the same request path: file name from Content-Disposition, problems as ApiError', async () => {
    const fetchMock = vi.fn(async (request: Request) =>
      new URL(request.url).pathname.endsWith('/export')
        ? new Response('a;b', {
            status: 200,
            headers: {
              'content-type': 'text/csv',
              'content-disposition': "attachment; filename*=UTF-8''JejakAudit%202026.csv",
            },
          })
        : problem(404, { type: 'https://wbs.example/problems/not-found', detail: 'Data tidak ditemukan' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const file = await download.GET('/api/v1/audit-trail/export', {
      params: { query: { from: '2026-05-01', to: '2026-05-31' } },
    });
    expect(file.fileName).toBe('JejakAudit 2026.csv');
    expect(await file.blob.text()).toBe('a;b');
    const request = fetchMock.mock.calls[0]?.[0];
    expect(new URL(request?.url ?? '').search).toBe('?from=2026-05-01&to=2026-05-31');
    expect(request?.credentials).toBe('same-origin');
    const error = (await download
      .GET('/api/v1/cases/{id}/attachments/{attachmentId}', {
        params: { path: { id: '1', attachmentId: '2' } },
      })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.messages).toEqual(['Data tidak ditemukan']);
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
    await api.GET('/api/v1/cases/{id}', { params: { path: { id: '1' } } }).catch(() => undefined);
    expect(handler).toHaveBeenCalledTimes(1);
    expect((handler.mock.calls[0]?.[0] as ApiError | undefined)?.messages).toEqual(['Sesi habis']);
    await download
      .POST('/api/v1/cases/export', { body: { from: '2026-05-01', to: '2026-05-31' } })
      .catch(() => undefined);
    expect(handler).toHaveBeenCalledTimes(2);
    await api.GET('/api/v1/session', { authRedirect: false }).catch(() => undefined);
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('answers undefined for 204', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(api.DELETE('/api/v1/session')).resolves.toBeUndefined();
  });

  it('keys a GET query by the URL it requests', () => {
    expect(read('/api/v1/case-categories', { params: { query: { companyId: '2' } } }).key).toBe(
      '/api/v1/case-categories?companyId=2',
    );
    expect(read('/api/v1/cases/{id}', { params: { path: { id: '42' } } }).key).toBe('/api/v1/cases/42');
  });

  it('reads file names from Content-Disposition', () => {
    expect(fileNameFromDisposition('attachment; filename="a b.pdf"')).toBe('a b.pdf');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''AllCases%20-%201.xlsx")).toBe(
      'AllCases - 1.xlsx',
    );
    expect(fileNameFromDisposition(null)).toBeNull();
  });

  it('a 401 second-factor-required goes to the handler (the pending step), a refused code does not', async () => {
    let reply = problem(401, { type: 'https://wbs.example/problems/second-factor-required', status: 401 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => reply.clone()),
    );
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    const error = (await api.GET('/api/v1/case-statuses').catch((e: unknown) => e)) as ApiError;
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]?.[0]).toBe(error);
    expect(error.type).toBe('second-factor-required');
    expect(error.handled).toBe(true);
    // A wrong code is an answer of the second-factor step, whatever its status: the session lives on.
    reply = problem(401, { type: 'https://wbs.example/problems/second-factor-failed', detail: 'Salah' });
    await api
      .POST('/api/v1/session/second-factor', { body: { method: 'totp', code: '123456' } })
      .catch(() => undefined);
    expect(handler).toHaveBeenCalledTimes(1);
  });
});

describe('step-up', () => {
  it('asks for the factor on a 401 step-up-required, then sends the same request once more', async () => {
    const bodies: string[] = [];
    let asked = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        bodies.push(await request.text());
        return bodies.length === 1 ? stepUpRequired() : Response.json({ phone: '0812', email: 'a@b.co' });
      }),
    );
    const unauthorized = vi.fn();
    setUnauthorizedHandler(unauthorized);
    setStepUpHandler(async (error) => {
      asked++;
      expect(error.type).toBe('step-up-required');
      return true;
    });
    const reply = await api.POST('/api/v1/cases/{id}/contact-reveal', {
      params: { path: { id: '7' } },
      body: { reason: 'Perlu menghubungi pelapor untuk klarifikasi' },
    });
    expect(reply).toEqual({ phone: '0812', email: 'a@b.co' });
    expect(asked).toBe(1);
    expect(bodies).toEqual([bodies[0], bodies[0]]);
    expect(JSON.parse(bodies[0] ?? '')).toEqual({ reason: 'Perlu menghubungi pelapor untuk klarifikasi' });
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('retries a download the same way', async () => {
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        ++calls === 1
          ? stepUpRequired()
          : new Response('x', {
              headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="a.csv"' },
            }),
      ),
    );
    setStepUpHandler(async () => true);
    const file = await download.GET('/api/v1/audit-trail/export', {
      params: { query: { from: '2026-05-01', to: '2026-05-31' } },
    });
    expect(file.fileName).toBe('a.csv');
    expect(calls).toBe(2);
  });

  it('declined: the call fails quietly (handled), and is not sent again', async () => {
    const fetchMock = vi.fn(async () => stepUpRequired());
    vi.stubGlobal('fetch', fetchMock);
    const unauthorized = vi.fn();
    setUnauthorizedHandler(unauthorized);
    setStepUpHandler(async () => false);
    const error = (await download
      .POST('/api/v1/cases/export', { body: { from: '2026-05-01', to: '2026-05-31' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.type).toBe('step-up-required');
    expect(error.handled).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // Never a sign-out: the session is fine, it only wants a recent factor.
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('asks once for calls that need it together, and asks only once per call', async () => {
    const seen = new Map<string, number>();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        const path = new URL(request.url).pathname;
        const count = (seen.get(path) ?? 0) + 1;
        seen.set(path, count);
        // The first call is refused again after the factor: its error is shown, not a second prompt.
        if (path.endsWith('/7/contact-reveal')) return stepUpRequired();
        return count === 1 ? stepUpRequired() : Response.json({ phone: null, email: null });
      }),
    );
    let release: (ok: boolean) => void = () => undefined;
    const handler = vi.fn(() => new Promise<boolean>((resolve) => (release = resolve)));
    setStepUpHandler(handler);
    const body = { reason: 'Perlu menghubungi pelapor untuk klarifikasi' };
    const first = api
      .POST('/api/v1/cases/{id}/contact-reveal', { params: { path: { id: '7' } }, body })
      .catch((e: unknown) => e);
    const second = api.POST('/api/v1/cases/{id}/contact-reveal', { params: { path: { id: '8' } }, body });
    await vi.waitFor(() => expect(handler).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(handler).toHaveBeenCalledTimes(1);
    release(true);
    await expect(second).resolves.toEqual({ phone: null, email: null });
    const error = (await first) as ApiError;
    expect(error.type).toBe('step-up-required');
    expect(error.handled).toBe(false);
    expect(handler).toHaveBeenCalledTimes(1);
  });
});
