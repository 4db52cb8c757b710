import { Button, Dialog, HStack, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useRef } from 'react';
import { notify } from '../../ui/toaster.tsx';

/** A read-only password with Salin: copies it (or, where the clipboard is refused, selects it). */
export function CopyablePassword(props: { password: string; label: string }) {
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.password);
      notify.success('Password berhasil disalin');
    } catch {
      input.current?.select();
      notify.warning('Password tidak dapat disalin otomatis; salin teks yang sudah dipilih (Ctrl+C).');
    }
  };
  return (
    <HStack gap="2">
      <Input
        ref={input}
        aria-label={props.label}
        name="initialPassword"
        value={props.password}
        readOnly
        fontFamily="mono"
        onFocus={(e) => e.currentTarget.select()}
      />
      <Button type="button" variant="outline" onClick={() => void copy()}>
        Salin
      </Button>
    </HStack>
  );
}

/**
 * Shown once after a partner, company or staff member was created: the sign-in account's initial
 * password (the gateway returns it only in the create reply). Closing it returns to the list.
 */
export function CreatedAccountDialog(props: {
  account: string | undefined;
  password: string;
  onClose: () => void;
}) {
  return (
    <Dialog.Root
      open
      role="alertdialog"
      placement="center"
      closeOnInteractOutside={false}
      onOpenChange={(e) => {
        if (!e.open) props.onClose();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>Akun Berhasil Dibuat</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                <Text>
                  {props.account ? (
                    <>
                      Password awal untuk username <strong>{props.account}</strong>:
                    </>
                  ) : (
                    'Password awal akun baru:'
                  )}
                </Text>
                <CopyablePassword password={props.password} label="Password awal" />
                <Text fontSize="sm" color="fg.muted">
                  Password ini hanya ditampilkan sekali. Sampaikan kepada pemilik akun; ia wajib menggantinya
                  saat pertama kali masuk.
                </Text>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button onClick={props.onClose}>Tutup</Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
