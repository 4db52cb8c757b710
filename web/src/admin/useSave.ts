import { useState } from 'react';
import { ApiError, api } from '../api/client.ts';
import type { MessageReply } from '../api/types.ts';
import { type ConfirmOptions, useConfirm } from '../ui/ConfirmDialog.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { notify } from '../ui/toaster.tsx';
import type { Errors } from '../ui/validate.ts';

/** Save flow of the master forms: confirm, call, success message, or field errors and a snackbar. */
export function useSave() {
  const confirm = useConfirm();
  const loading = useLoading();
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const save = async (
    options: ConfirmOptions,
    path: string,
    method: 'POST' | 'PUT',
    body: unknown,
  ): Promise<boolean> => {
    if (!(await confirm(options))) return false;
    loading.show();
    try {
      const reply = await api<MessageReply | undefined>(path, { method, body });
      if (reply?.message) notify.success(reply.message);
      setServerErrors({});
      return true;
    } catch (error) {
      if (error instanceof ApiError) setServerErrors(error.fieldErrors);
      notify.problem(error);
      return false;
    } finally {
      loading.hide();
    }
  };
  return { save, serverErrors };
}
