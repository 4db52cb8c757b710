import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway, ok } from '../test/fakeGateway.ts';
import { cleanUp, renderAt, renderWithProviders } from '../test/render.tsx';
import { userOfType } from '../test/users.ts';
import CaseWizardPage from './CaseWizardPage.tsx';

vi.mock('../ui/toaster.tsx', () => ({
  notify: { warning: vi.fn(), problem: vi.fn(), success: vi.fn(), error: vi.fn() },
  preloadToaster: vi.fn(async () => undefined),
}));

function renderWizard() {
  fakeGateway(
    { 'GET /session': () => ({ status: 401, body: {} }) },
    // A guest; every other read (provinces, cities) gets the same one-province list.
    { otherwise: { status: 200, body: { items: [{ id: 31, name: 'DKI Jakarta' }] } } },
  );
  return renderWithProviders(<CaseWizardPage />);
}

afterEach(cleanUp);

describe('report wizard (rendered)', () => {
  it('shows the step-0 messages under the fields on Next and stays on the step', async () => {
    renderWizard();
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Next' }));
    });
    expect(screen.getByText('Identitas Pelapor wajib diisi')).toBeTruthy();
    expect(screen.getByText('Provinsi wajib diisi')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Identitas pelapor' })).toBeTruthy();
  });

  it('hides name, address and location fields in anonymous mode', async () => {
    renderWizard();
    expect(await screen.findByLabelText('Nama')).toBeTruthy();
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

describe('report wizard: who may open it signed in', () => {
  it.each([
    ['the administrator', userOfType(1), '/admin/partner'],
    ['a pelapor', userOfType(6), '/admin/case'],
    ['an analyst without the privileged role', userOfType(4, 2), '/admin/dashboard'],
  ])('%s is sent to its landing screen', async (_who, user, target) => {
    fakeGateway({ 'GET /session': ok({ user, passwordChangeRequired: false }) });
    const location = renderAt('/case/create', <CaseWizardPage />);
    await waitFor(() => expect(location.history.at(-1)).toBe(target));
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
  });

  it('a company admin files a report', async () => {
    fakeGateway(
      { 'GET /session': ok({ user: userOfType(2), passwordChangeRequired: false }) },
      { otherwise: { status: 200, body: { items: [{ id: 31, name: 'DKI Jakarta' }] } } },
    );
    const location = renderAt('/case/create', <CaseWizardPage />);
    expect(await screen.findByRole('button', { name: 'Next' })).toBeTruthy();
    expect(location.history).toEqual(['/case/create']);
  });
});
