/**
 * Tandai Sudah Dimusnahkan: the officer attests that a case of the register was destroyed in the
 * legacy, with an optional Catatan. The gateway refuses a second mark (409); its message is shown and
 * the register read again, since someone else marked it meanwhile.
 */
import { Button, Dialog, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import { format } from '@wbs/shared/messages';
import { DISPOSAL_NOTE_MAX } from '@wbs/shared/retention';
import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { FormField } from '../../ui/FormField.tsx';
import { notify } from '../../ui/toaster.tsx';
import { useFormErrors } from '../../ui/useFormErrors.ts';
import { type DisposalItem, markDestroyed } from './calls.ts';
import { REGISTER_TEXTS as T } from './texts.ts';

/**
 * Stays mounted while it closes (the parent clears `item` on `onExitComplete`), so Chakra gives the
 * focus back to `finalFocus()`: the row's button after Batal, the page's heading once the row is gone.
 */
export function MarkDestroyedDialog(props: {
  item: DisposalItem;
  open: boolean;
  finalFocus: () => HTMLElement | null;
  /** marked: the register changed (this mark, or someone else's before it). */
  onClose: (marked: boolean) => void;
  onExitComplete: () => void;
}) {
  const { item } = props;
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const { errors, setErrors, showServer, clearField } = useFormErrors();

  const close = (marked: boolean) => props.onClose(marked);

  const submit = async () => {
    const text = note.trim();
    if (text.length > DISPOSAL_NOTE_MAX) {
      setErrors({ note: T.noteTooLong });
      return;
    }
    setBusy(true);
    try {
      const reply = await markDestroyed(item.id, text);
      notify.success(reply.message);
      close(true);
    } catch (error) {
      if (showServer(error)) return;
      notify.problem(error);
      // Marked already by someone else: the row has moved on, so the register is read again.
      if (error instanceof ApiError && (error.status === 409 || error.status === 404)) close(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root
      open={props.open}
      role="alertdialog"
      placement="center"
      finalFocusEl={props.finalFocus}
      onExitComplete={props.onExitComplete}
      onOpenChange={(e) => {
        if (!e.open && !busy) close(false);
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4" asChild>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void submit();
              }}
            >
              <Dialog.Header>
                <Dialog.Title>{T.dialogTitle}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Dialog.Description asChild>
                    <Text>{format(T.dialogMessage, { id: item.caseId, company: item.companyName })}</Text>
                  </Dialog.Description>
                  <FormField label={T.note} helper={T.noteHelper} error={errors.note}>
                    <Textarea
                      name="note"
                      rows={3}
                      value={note}
                      maxLength={DISPOSAL_NOTE_MAX}
                      onChange={(e) => {
                        setNote(e.target.value);
                        clearField('note');
                      }}
                    />
                  </FormField>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => close(false)} disabled={busy}>
                  {T.cancel}
                </Button>
                <Button type="submit" colorPalette="red" loading={busy}>
                  {T.confirm}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
