import { Button } from '@chakra-ui/react';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { notify } from '../ui/toaster.tsx';
import { type ResettableAccount, resetSecondFactor } from './calls.ts';
import { SECOND_FACTOR_TEXTS as T } from './texts.ts';

/**
 * Reset Faktor Kedua on an account's View screen, for the account's manager (type 1: partners and
 * companies; type 2: analysts; type 3: partner staff): the user lost its factors and recovery codes.
 * The gateway removes them and ends the user's sessions; its reply's message is the snackbar.
 */
export function ResetSecondFactorButton(props: { kind: ResettableAccount; id: number }) {
  const confirm = useConfirm();
  const loading = useLoading();
  const reset = async () => {
    if (!(await confirm({ title: T.resetTitle, message: T.resetConfirm, actionLabel: 'Oke' }))) return;
    loading.show();
    try {
      const reply = await resetSecondFactor(props.kind, props.id);
      notify.success(reply.message);
    } catch (error) {
      notify.problem(error);
    } finally {
      loading.hide();
    }
  };
  return (
    <Button type="button" variant="outline" onClick={() => void reset()}>
      {T.resetButton}
    </Button>
  );
}
