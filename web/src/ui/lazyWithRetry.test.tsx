import { ChakraProvider } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { system } from '../theme.ts';
import { ErrorBoundary, FAILURE_TEXTS } from './ErrorBoundary.tsx';
import { isChunkLoadError, lazyWithRetry, retryImport } from './lazyWithRetry.tsx';

const chunkError = () => new TypeError('Failed to fetch dynamically imported module: /assets/X-abc.js');

afterEach(cleanup);

describe('chunk loads that survive a dropped connection', () => {
  it('retries chunk-load failures and then succeeds', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(chunkError())
      .mockRejectedValueOnce(chunkError())
      .mockResolvedValue('ok');
    await expect(retryImport(load, [0, 0, 0])).resolves.toBe('ok');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('gives up after its pauses, and never retries other errors', async () => {
    const failing = vi.fn().mockRejectedValue(chunkError());
    await expect(retryImport(failing, [0, 0])).rejects.toThrow(/dynamically imported/);
    expect(failing).toHaveBeenCalledTimes(3);
    const bug = vi.fn().mockRejectedValue(new Error('x is not a function'));
    await expect(retryImport(bug, [0, 0])).rejects.toThrow('x is not a function');
    expect(bug).toHaveBeenCalledTimes(1);
    expect(isChunkLoadError(new Error('Importing a module script failed.'))).toBe(true);
  });

  it('a piece that finally failed shows a message, then loads afresh on Coba lagi', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let reachable = false;
    const Piece = lazyWithRetry(async () => {
      if (!reachable) throw chunkError();
      return { default: () => <p>Isi dimuat</p> };
    });
    render(
      <ChakraProvider value={system}>
        <p>Data tetap ada</p>
        <ErrorBoundary>
          <Suspense fallback={<p>Memuat</p>}>
            <Piece />
          </Suspense>
        </ErrorBoundary>
      </ChakraProvider>,
    );
    await screen.findByText(FAILURE_TEXTS.chunk, {}, { timeout: 8000 });
    expect(screen.getByText('Data tetap ada')).toBeTruthy();
    reachable = true;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: FAILURE_TEXTS.retry }));
    });
    await screen.findByText('Isi dimuat');
    vi.restoreAllMocks();
  }, 15_000);
});
