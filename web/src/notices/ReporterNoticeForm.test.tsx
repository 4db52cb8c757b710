/**
 * The reporter's e-mail notice form, panel and link pages: the gateway's address rule before any
 * round trip, the tracker's proof in the body, the one neutral answer shown as it came, masked
 * addresses only, and a mail link's token read from the fragment, cleared from the address bar and
 * posted only on a press.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DIGEST_STOP_MESSAGES as D, REPORTER_NOTICE_MESSAGES as M } from '@wbs/shared/messages';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '../theme.ts';
import { ConfirmNoticePage, OptOutNoticePage, StopDigestPage } from './NoticeLinkPage.tsx';
import { ReporterNoticeForm, ReporterNoticeSection } from './ReporterNoticeForm.tsx';

vi.mock('../ui/toaster.tsx', () => ({ notify: { problem: vi.fn(), success: vi.fn() } }));

const TRACKER = { kind: 'tracker' as const, caseNumber: 'WBS-10000002', password: 'Lapor#2026!' };
const TOKEN = `${'q'.repeat(40)}Z_-`;

type Call = { method: string; url: string; body: unknown };
let calls: Call[] = [];
let lastQuery = '';

/** Answers each request with `reply(call)` (a status and a JSON body). */
function stubFetch(reply: (call: Call) => { status?: number; body: unknown }) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const text = await request.text();
      const call = {
        method: request.method,
        url: new URL(request.url).pathname,
        body: text ? JSON.parse(text) : null,
      };
      calls.push(call);
      lastQuery = new URL(request.url).search.replace(/^\?/, '');
      const { status = 200, body } = reply(call);
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
      });
    }),
  );
}

const show = (node: ReactNode) => render(<ChakraProvider value={system}>{node}</ChakraProvider>);
const type = (value: string) => fireEvent.change(screen.getByLabelText(M.emailLabel), { target: { value } });
const submit = () =>
  act(async () => {
    fireEvent.click(screen.getByRole('button', { name: M.submit }));
  });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the notice form', () => {
  it('says a throwaway address is fine, refuses anything but one address before sending, then shows the one answer', async () => {
    stubFetch(() => ({ status: 202, body: { message: M.requested } }));
    show(<ReporterNoticeForm access={TRACKER} />);
    expect(screen.getByText(/alamat e-mail terpisah atau sekali pakai/)).toBeTruthy();
    for (const bad of [
      'a@contoh.id\r\nBcc: b@contoh.id',
      'a@contoh.id, b@contoh.id',
      'Nama <a@contoh.id>',
      'ä@contoh.id',
    ]) {
      type(bad);
      await submit();
      expect(await screen.findByText(M.emailInvalid)).toBeTruthy();
    }
    type('');
    await submit();
    expect(await screen.findByText(M.emailRequired)).toBeTruthy();
    expect(calls).toEqual([]);

    type('  sekali.pakai@surel.id ');
    await submit();
    expect(await screen.findByRole('status')).toHaveProperty('textContent', M.requested);
    expect(calls).toEqual([
      {
        method: 'POST',
        url: '/api/v1/tracking/reporter-notices',
        body: { caseNumber: 'WBS-10000002', password: 'Lapor#2026!', email: 'sekali.pakai@surel.id' },
      },
    ]);
    expect((screen.getByLabelText(M.emailLabel) as HTMLInputElement).value).toBe('');
  });

  it('the pelapor names its case, and the session does the rest', async () => {
    stubFetch(() => ({ status: 202, body: { message: M.requested } }));
    show(<ReporterNoticeForm access={{ kind: 'case', caseId: 42 }} />);
    type('pelapor@surel.id');
    await submit();
    await screen.findByRole('status');
    expect(calls).toEqual([
      { method: 'POST', url: '/api/v1/cases/42/reporter-notices', body: { email: 'pelapor@surel.id' } },
    ]);
  });
});

describe('the tracked view panel', () => {
  it('shows where notices go (masked) and stops them', async () => {
    stubFetch((call) =>
      call.url.endsWith('/stop')
        ? { body: { confirmed: null, pending: null } }
        : { body: { confirmed: 'k***@s***.id', pending: 'g***@l***.id' } },
    );
    show(<ReporterNoticeSection access={TRACKER} />);
    expect(await screen.findByText(`Pemberitahuan dikirim ke k***@s***.id.`)).toBeTruthy();
    expect(screen.getByText(`Menunggu konfirmasi untuk g***@l***.id.`)).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: M.stop }));
    });
    expect(await screen.findByText(M.none)).toBeTruthy();
    expect(screen.queryByRole('button', { name: M.stop })).toBeNull();
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      ['/api/v1/tracking/reporter-notices/status', { caseNumber: 'WBS-10000002', password: 'Lapor#2026!' }],
      ['/api/v1/tracking/reporter-notices/stop', { caseNumber: 'WBS-10000002', password: 'Lapor#2026!' }],
    ]);
  });
});

describe('the mail link pages', () => {
  it('take the token out of the fragment and send it only when asked', async () => {
    stubFetch(() => ({ body: { confirmed: 'k***@s***.id' } }));
    window.history.replaceState(null, '', `/notifikasi/konfirmasi#${TOKEN}`);
    show(<ConfirmNoticePage />);
    const button = await screen.findByRole('button', { name: M.confirmButton });
    // Gone from the address bar at once; nothing sent yet (a mail scanner opening the link does nothing).
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/notifikasi/konfirmasi');
    expect(calls).toEqual([]);
    await act(async () => {
      fireEvent.click(button);
    });
    expect(await screen.findByText(/Kami akan memberi tahu k\*\*\*@s\*\*\*\.id/)).toBeTruthy();
    expect(calls).toEqual([
      { method: 'POST', url: '/api/v1/reporter-notices/confirm', body: { token: TOKEN } },
    ]);
  });

  it('a used or expired link says so; a cut one asks for the whole link', async () => {
    stubFetch(() => ({
      status: 404,
      body: { type: 'x/not-found', status: 404, title: 'x', detail: M.confirmFailed },
    }));
    window.history.replaceState(null, '', `/notifikasi/konfirmasi#${TOKEN}`);
    show(<ConfirmNoticePage />);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: M.confirmButton }));
    });
    expect(await screen.findByText(M.confirmFailed)).toBeTruthy();
    cleanup();
    window.history.replaceState(null, '', `/notifikasi/berhenti#${TOKEN.slice(0, 20)}`);
    show(<OptOutNoticePage />);
    expect(await screen.findByText(M.linkMissing)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('opting out posts the token and shows the same answer whatever it named', async () => {
    stubFetch(() => ({ body: { message: M.optOutDone } }));
    window.history.replaceState(null, '', `/notifikasi/berhenti#${TOKEN}`);
    show(<OptOutNoticePage />);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: M.stop }));
    });
    expect(await screen.findByText(M.optOutDone)).toBeTruthy();
    expect(calls).toEqual([
      { method: 'POST', url: '/api/v1/reporter-notices/opt-out', body: { token: TOKEN } },
    ]);
  });

  it("a staff digest's stop link posts its token to the one-click address, and only when asked", async () => {
    stubFetch(() => ({ body: { message: 'Ringkasan harian tidak akan dikirim lagi' } }));
    const digestToken = `MTI.${'k'.repeat(43)}`;
    window.history.replaceState(null, '', `/notifikasi/ringkasan#${digestToken}`);
    show(<StopDigestPage />);
    const button = await screen.findByRole('button', { name: D.button });
    expect(window.location.hash).toBe('');
    expect(calls).toEqual([]);
    await act(async () => {
      fireEvent.click(button);
    });
    expect(await screen.findByText('Ringkasan harian tidak akan dikirim lagi')).toBeTruthy();
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/notice-preferences/unsubscribe']);
    expect(lastQuery).toBe(`token=${encodeURIComponent(digestToken)}`);
  });
});
