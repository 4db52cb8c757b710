/**
 * Error boundaries: a failure inside a piece (a chunk that cannot load, a rendering bug) shows an
 * Indonesian message with a way out in place of that piece, never a blank page. What lives above
 * the boundary (the wizard's typed data) stays in memory.
 */
import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isChunkLoadError, resetFailedLazyPieces } from './lazyWithRetry.tsx';

export const FAILURE_TEXTS = {
  chunk:
    'Sebagian halaman gagal dimuat. Periksa koneksi internet Anda, lalu coba lagi. Data yang sudah Anda isi tetap tersimpan di halaman ini.',
  crash:
    'Terjadi kesalahan saat menampilkan bagian ini. Data yang sudah Anda isi tetap tersimpan di halaman ini.',
  page: 'Halaman gagal dimuat. Periksa koneksi internet Anda, lalu coba lagi atau muat ulang halaman.',
  retry: 'Coba lagi',
  reload: 'Muat ulang halaman',
} as const;

type Props = {
  children: ReactNode;
  /** What to show instead of the failed piece; the default is a message with Coba lagi. */
  fallback?: (retry: () => void, error: unknown) => ReactNode;
  /** Whole-page boundaries also offer a reload (safe there: nothing typed lives below them). */
  offerReload?: boolean;
};

type State = { error: unknown; failed: boolean };

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Only the kind of failure: the page may hold a report, never log its content.
    console.warn(
      'wbs: piece failed',
      isChunkLoadError(error) ? 'chunk-load' : 'render',
      info.componentStack?.length,
    );
  }

  retry = () => {
    resetFailedLazyPieces();
    this.setState({ error: null, failed: false });
  };

  override render() {
    if (!this.state.failed) return this.props.children;
    if (this.props.fallback) return this.props.fallback(this.retry, this.state.error);
    return (
      <FailureNotice error={this.state.error} onRetry={this.retry} offerReload={this.props.offerReload} />
    );
  }
}

export function FailureNotice(props: {
  error: unknown;
  onRetry: () => void;
  offerReload?: boolean | undefined;
}) {
  const text = props.offerReload
    ? FAILURE_TEXTS.page
    : isChunkLoadError(props.error)
      ? FAILURE_TEXTS.chunk
      : FAILURE_TEXTS.crash;
  return (
    <Box role="alert" borderWidth="1px" borderColor="border.error" bg="bg.error" rounded="md" p="4" my="4">
      <Stack gap="3">
        <Text>{text}</Text>
        <HStack gap="3" wrap="wrap">
          <Button size="sm" onClick={props.onRetry}>
            {FAILURE_TEXTS.retry}
          </Button>
          {props.offerReload && (
            <Button size="sm" variant="outline" onClick={() => window.location.reload()}>
              {FAILURE_TEXTS.reload}
            </Button>
          )}
        </HStack>
      </Stack>
    </Box>
  );
}
