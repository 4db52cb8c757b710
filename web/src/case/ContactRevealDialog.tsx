import { Button, Dialog, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import {
  type ContactRevealReply,
  contactRevealRequest,
  REVEAL_REASON_MAX,
} from '@wbs/shared/api/contact-reveal';
import { UI_MESSAGES } from '@wbs/shared/messages';
import { useState } from 'react';
import * as v from 'valibot';
import { ApiError } from '../api/client.ts';
import { FormField } from '../ui/FormField.tsx';
import { notify } from '../ui/toaster.tsx';
import { revealContact } from './detail.ts';

/** The gateway's own rules (shared schema), so the handler learns them before a round trip. */
function reasonError(reason: string): string | undefined {
  const result = v.safeParse(contactRevealRequest, { reason });
  return result.success ? undefined : result.issues[0]?.message;
}

/**
 * "Tampilkan kontak pelapor": the handler states why it needs the hidden reporter's contact details;
 * the values come back to the caller, which holds them in memory for this view only.
 */
export function ContactRevealDialog(props: {
  caseId: number;
  onClose: () => void;
  onRevealed: (contact: ContactRevealReply) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit() {
    const problem = reasonError(reason);
    setError(problem);
    if (problem) return;
    setBusy(true);
    try {
      props.onRevealed(await revealContact(props.caseId, reason.trim()));
    } catch (caught) {
      if (caught instanceof ApiError && caught.fieldErrors.reason) setError(caught.fieldErrors.reason);
      else notify.problem(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root
      open
      onOpenChange={(e) => {
        if (!e.open) props.onClose();
      }}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{UI_MESSAGES.revealTitle}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Text>{UI_MESSAGES.revealExplanation}</Text>
                <FormField label={UI_MESSAGES.revealReasonLabel} error={error} required>
                  <Textarea
                    value={reason}
                    maxLength={REVEAL_REASON_MAX + 50}
                    rows={3}
                    onChange={(e) => setReason(e.target.value)}
                  />
                </FormField>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={props.onClose} disabled={busy}>
                Batal
              </Button>
              <Button colorPalette="brand" loading={busy} onClick={() => void submit()}>
                {UI_MESSAGES.revealContact}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
