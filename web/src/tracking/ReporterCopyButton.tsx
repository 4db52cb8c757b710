/**
 * "Unduh salinan laporan saya": the copy of what the reporter's view shows (pdfmake and the document
 * builder load on the first press), on the tracked view and on a signed-in pelapor's own case. Pesan is
 * the conversation the tab shows; when the tab was never opened it is read now, exactly as opening the
 * tab reads it, and the tab then shows that same reading (`onMessages`).
 */
import { Button } from '@chakra-ui/react';
import type { Message } from '@wbs/shared/api/messages';
import { useState } from 'react';
import { ApiError } from '../api/client.ts';
import type { CaseDetail } from '../case/detail.ts';
import { type CaseAccess, fetchConversation } from '../case/messages/access.ts';
import { retryImport } from '../ui/lazyWithRetry.tsx';
import { notify } from '../ui/toaster.tsx';
import { REPORTER_COPY_TEXTS } from './texts.ts';

export function ReporterCopyButton(props: {
  detail: CaseDetail;
  access: CaseAccess;
  /** Pesan as the view last showed or read it; null when not read yet. */
  messages: Message[] | null;
  onMessages: (messages: Message[]) => void;
  /** As the view: the tracked view names the reporter beside the number, the pelapor's own view not. */
  showReporterName?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      let messages = props.messages;
      if (!messages) {
        messages = (await fetchConversation(props.access)).messages;
        props.onMessages(messages);
      }
      const { downloadReporterCopy } = await retryImport(() => import('./reporterCopy.ts'));
      await downloadReporterCopy({
        detail: props.detail,
        messages,
        generatedAt: new Date(),
        showReporterName: props.showReporterName ?? true,
      });
    } catch (error) {
      if (error instanceof ApiError) notify.problem(error);
      else notify.error(REPORTER_COPY_TEXTS.failed);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="outline" onClick={() => void download()} loading={busy} disabled={busy}>
      {REPORTER_COPY_TEXTS.button}
    </Button>
  );
}
