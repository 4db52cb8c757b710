import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '../theme.ts';
import { ConfirmProvider } from '../ui/ConfirmDialog.tsx';
import { LoadingProvider } from '../ui/LoadingOverlay.tsx';
import CaseWizardPage from './CaseWizardPage.tsx';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { warning: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn() },
  preloadToaster: vi.fn(async () => undefined),
}));

function renderWizard() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      if (request.url.endsWith('/session'))
        return new Response('{}', { status: 401, headers: { 'content-type': 'application/problem+json' } });
      return Response.json({ items: [{ id: 31, name: 'DKI Jakarta' }] });
    }),
  );
  return render(
    <ChakraProvider value={system}>
      <SWRConfig value={{ provider: () => new Map() }}>
        <LoadingProvider>
          <ConfirmProvider>
            <CaseWizardPage />
          </ConfirmProvider>
        </LoadingProvider>
      </SWRConfig>
    </ChakraProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('report wizard (rendered)', () => {
  it('shows the step-0 messages under the fields on Next and stays on the step', async () => {
    renderWizard();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    });
    expect(screen.getByText('Identitas Pelapor wajib diisi')).toBeTruthy();
    expect(screen.getByText('Provinsi wajib diisi')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Identitas pelapor' })).toBeTruthy();
  });

  it('hides name, address and location fields in anonymous mode', async () => {
    renderWizard();
    expect(screen.getByLabelText('Nama')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByLabelText('Tanpa Identitas'));
    });
    expect(screen.queryByLabelText('Nama')).toBeNull();
    expect(screen.queryByLabelText('Provinsi')).toBeNull();
    expect(screen.getByLabelText('Email')).toBeTruthy();
    // What the contact details are for and who sees them.
    const notice = screen.getByTestId('contact-use-notice').textContent ?? '';
    expect(notice).toContain('tersamar');
    expect(notice).toContain('jejak audit');
  });
});
