import { Toaster as ChakraToaster, createToaster, Portal, Stack, Toast } from '@chakra-ui/react';
import { SNACKBAR } from '@wbs/shared/constants';

/** Snackbars: bottom right, at most 5 at once, 3000 ms each (spec section 9). */
export const toaster = createToaster({
  placement: 'bottom-end',
  max: SNACKBAR.max,
  duration: SNACKBAR.durationMs,
  pauseOnPageIdle: true,
});

/**
 * Snackbars let clicks through (only their close button takes the pointer): they sit bottom right,
 * where the wizard's Save button and table pagers also are, and must never block them.
 */
export default function ToasterView() {
  return (
    <Portal>
      <ChakraToaster
        toaster={toaster}
        aria-label="Notifikasi"
        insetInline={{ mdDown: '4' }}
        pointerEvents="none"
      >
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} css={{ pointerEvents: 'none !important' }}>
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && (
                <Toast.Description whiteSpace="pre-line">{toast.description}</Toast.Description>
              )}
            </Stack>
            <Toast.CloseTrigger aria-label="Abaikan notifikasi" pointerEvents="auto" />
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
