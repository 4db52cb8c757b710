import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendMessage } from './access.ts';

const conversation = { messages: [], postedId: 7 };
const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });

afterEach(() => vi.unstubAllGlobals());

describe('sendMessage', () => {
  it('retries a lost answer with the same Idempotency-Key and the proof in the body', async () => {
    const calls: { url: string; key: string | null; body: unknown }[] = [];
    const replies = [
      () => Promise.reject(new TypeError('network down')),
      () =>
        Promise.resolve(
          json(503, { type: 'https://x/problems/busy', detail: 'sibuk' }, 'application/problem+json'),
        ),
      () => Promise.resolve(json(201, conversation)),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        calls.push({
          url: new URL(request.url).pathname,
          key: request.headers.get('Idempotency-Key'),
          body: JSON.parse(await request.text()),
        });
        return (replies.shift() as () => Promise<Response>)();
      }),
    );
    vi.useFakeTimers();
    const sent = sendMessage(
      { kind: 'tracker', caseNumber: 'WBS-12345678', password: 'rahasia' },
      'Halo',
      'k-123456789',
    );
    await vi.runAllTimersAsync();
    await expect(sent).resolves.toEqual(conversation);
    vi.useRealTimers();
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.url).toBe('/api/v1/tracking/messages');
      expect(call.key).toBe('k-123456789');
      expect(call.body).toEqual({ caseNumber: 'WBS-12345678', password: 'rahasia', text: 'Halo' });
    }
  });

  it('does not retry a refused message', async () => {
    const fetch = vi.fn(() =>
      Promise.resolve(
        json(
          400,
          { type: 'https://x/problems/validation', errors: { text: 'Pesan wajib diisi' } },
          'application/problem+json',
        ),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(sendMessage({ kind: 'case', caseId: 3 }, 'x', 'k-123456789')).rejects.toMatchObject({
      status: 400,
      fieldErrors: { text: 'Pesan wajib diisi' },
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
