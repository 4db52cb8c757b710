/**
 * The staff case detail's hidden reporter: masked contact details with "Tampilkan" (reason dialog)
 * for handlers allowed to reveal, values held in memory only, identity withheld by the pelapor's choice.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { FIELD_MESSAGES, UI_MESSAGES } from '@wbs/shared/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '../theme.ts';
import { CaseDetailView } from './CaseDetailView.tsx';
import { sampleDetail } from './detail.fixture.ts';
import type { CaseDetail } from './detail.ts';

vi.mock('../ui/toaster.tsx', () => ({ notify: { problem: vi.fn() } }));

const masked: CaseDetail = {
  ...sampleDetail,
  reporter: {
    ...sampleDetail.reporter,
    anonymous: true,
    contactMasked: true,
    name: null,
    address: null,
    provinceName: null,
    cityName: null,
    districtName: null,
    email: 'r***@g***.com',
    phone: '+62 8** **** *789',
  },
};

let calls: { url: string; body: unknown }[] = [];

function renderView(detail: CaseDetail, canRevealContact: boolean) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      const body = await request.text();
      calls.push({ url: new URL(request.url).pathname, body: body ? JSON.parse(body) : null });
      return Response.json({ email: 'rina.wulandari@gmail.com', phone: '+6281234567789' });
    }),
  );
  return render(
    <ChakraProvider value={system}>
      <CaseDetailView
        detail={detail}
        masked={false}
        showReporterName
        onBack={() => {}}
        canRevealContact={canRevealContact}
      />
    </ChakraProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('hidden reporter in the staff detail', () => {
  it('shows masked values and reveals them with a stated reason', async () => {
    renderView(masked, true);
    expect(screen.getByText('r***@g***.com')).toBeTruthy();
    expect(screen.getAllByText(UI_MESSAGES.contactMaskedHint)).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: UI_MESSAGES.revealContact }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(UI_MESSAGES.revealExplanation);
    // No reason, then too short a reason: refused on the spot, nothing sent.
    const submit = () =>
      act(async () => {
        const buttons = screen.getAllByRole('button', { name: UI_MESSAGES.revealContact });
        fireEvent.click(buttons[buttons.length - 1]!);
      });
    await submit();
    expect(await screen.findByText(FIELD_MESSAGES.revealReasonRequired)).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'singkat' } });
    await submit();
    expect(await screen.findByText(FIELD_MESSAGES.revealReasonMin)).toBeTruthy();
    // Long enough, but no words: the gateway's own message, before any round trip.
    fireEvent.change(screen.getByRole('textbox'), { target: { value: '!!!!!!!!!!!!\u200B\u200B' } });
    await submit();
    expect(await screen.findByText(FIELD_MESSAGES.revealReasonWords)).toBeTruthy();
    expect(calls).toHaveLength(0);

    fireEvent.change(screen.getByRole('textbox'), { target: { value: '  Klarifikasi bukti transfer  ' } });
    await submit();
    expect(await screen.findByText('rina.wulandari@gmail.com')).toBeTruthy();
    expect(screen.getByText('+6281234567789')).toBeTruthy();
    expect(calls).toEqual([
      { url: '/api/v1/cases/5/contact-reveal', body: { reason: 'Klarifikasi bukti transfer' } },
    ]);
    expect(screen.queryByText('r***@g***.com')).toBeNull();
    expect(screen.queryByRole('button', { name: UI_MESSAGES.revealContact })).toBeNull();
  });

  it('offers no reveal to a reader who may not reveal', () => {
    renderView(masked, false);
    expect(screen.getByText('+62 8** **** *789')).toBeTruthy();
    expect(screen.queryByRole('button', { name: UI_MESSAGES.revealContact })).toBeNull();
  });

  it('says when the pelapor chose to hide its identity', () => {
    renderView(
      {
        ...masked,
        reporter: { ...masked.reporter, anonymous: false, identityHidden: true, department: null },
      },
      true,
    );
    expect(screen.getAllByText(UI_MESSAGES.identityHiddenHint)).toHaveLength(6);
  });
});
