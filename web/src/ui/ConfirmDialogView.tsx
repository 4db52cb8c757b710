import { Button, Dialog, Portal } from '@chakra-ui/react';

/** Confirm dialog: button Tidak plus an action button (Simpan, Hapus or Oke). */
export default function ConfirmDialogView(props: {
  open: boolean;
  title: string;
  message: string;
  actionLabel: string;
  onClose: (ok: boolean) => void;
}) {
  return (
    <Dialog.Root
      open={props.open}
      onOpenChange={(e) => {
        if (!e.open) props.onClose(false);
      }}
      role="alertdialog"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{props.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{props.message}</Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => props.onClose(false)}>
                Tidak
              </Button>
              <Button
                colorPalette={props.actionLabel === 'Hapus' ? 'red' : 'brand'}
                onClick={() => props.onClose(true)}
              >
                {props.actionLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
