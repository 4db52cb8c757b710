import { ChakraProvider } from '@chakra-ui/react';
import { act } from '@testing-library/react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '../theme.ts';
import { HydratedForm } from './HydratedForm.tsx';

// React's act() environment flag, so the renders below are flushed inside act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const form = (onSubmit: () => void) => (
  <ChakraProvider value={system}>
    <HydratedForm onSubmit={onSubmit}>
      <input name="password" defaultValue="" />
      <button type="submit">Cari Laporan</button>
    </HydratedForm>
  </ChakraProvider>
);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a form on a prerendered page', () => {
  it('is prerendered with every control disabled and no native submit target', () => {
    const html = renderToString(form(() => {}));
    const container = document.createElement('div');
    container.innerHTML = html;
    const formElement = container.querySelector('form');
    expect(formElement?.hasAttribute('action')).toBe(false);
    expect(formElement?.hasAttribute('method')).toBe(false);
    expect(container.querySelector('fieldset')?.disabled).toBe(true);
    expect(container.querySelector('fieldset input')).not.toBeNull();
    expect(container.querySelector('fieldset button')).not.toBeNull();
  });

  it('is enabled by the first render after hydration, without a hydration error', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    container.innerHTML = renderToString(form(() => {}));
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(
        container,
        form(() => {}),
        { onRecoverableError: recoverable },
      );
    });
    expect(container.querySelector('fieldset')?.disabled).toBe(false);
    expect(recoverable).not.toHaveBeenCalled();
  });

  it('is enabled from the start when the browser renders it', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const submitted = vi.fn((event: Event) => event.preventDefault());
    await act(async () => {
      createRoot(container).render(form(() => {}));
    });
    expect(container.querySelector('fieldset')?.disabled).toBe(false);
    container.querySelector('form')?.addEventListener('submit', submitted);
    await act(async () => container.querySelector('button')?.click());
    expect(submitted).toHaveBeenCalledTimes(1);
  });
});
