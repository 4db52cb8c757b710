import { Button, Dialog, Portal } from '@chakra-ui/react';
import { useSession } from '../api/session.ts';
import { FactorPrompt } from './FactorPrompt.tsx';
import { SECOND_FACTOR_TEXTS as T } from './texts.ts';

/**
 * Verifikasi Ulang: an action wants a second factor used within the last minutes. The user gives
 * one (the account's methods, or a recovery code); the session's new state (stepUpUntil) is kept and
 * the action goes on. Closing the dialog declines.
 */
export default function StepUpDialog(props: { message?: string; onDone: (verified: boolean) => void }) {
  const { session, mutate } = useSession();
  return (
    <Dialog.Root
      open
      role="alertdialog"
      placement="center"
      closeOnInteractOutside={false}
      onOpenChange={(e) => {
        if (!e.open) props.onDone(false);
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{T.stepUpTitle}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <FactorPrompt
                methods={session?.secondFactor?.methods ?? []}
                intro={props.message ?? T.stepUpIntro}
                onVerified={async (secondFactor) => {
                  if (session) await mutate({ ...session, secondFactor }, { revalidate: false });
                  props.onDone(true);
                }}
                onSignInAgain={() => props.onDone(false)}
                footer={
                  <Button variant="outline" onClick={() => props.onDone(false)}>
                    {T.cancel}
                  </Button>
                }
              />
            </Dialog.Body>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
