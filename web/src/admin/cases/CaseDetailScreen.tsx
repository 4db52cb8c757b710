/**
 * A case opened from the list (/admin/case/{id}): the detail view with what the reader may do there
 * (Buat Catatan, attachment downloads, Pesan, contact reveal), and the loader of Buat Catatan opened
 * from a list row. A detail that cannot be read goes back to the list (the global SWR onError has
 * already said why).
 */
import { Button } from '@chakra-ui/react';
import { can, format, TEMPLATE_MESSAGES, USER_TYPES } from '@wbs/shared';
import type { Message } from '@wbs/shared/api/messages';
import { useEffect, useMemo, useState } from 'react';
import { type Download, download, read, withId } from '../../api/client.ts';
import { subjectOf, type User } from '../../api/types.ts';
import { useApi } from '../../api/useApi.ts';
import { CaseDetailView } from '../../case/CaseDetailView.tsx';
import { normaliseCaseDetail } from '../../case/detail.ts';
import { ReporterCopyButton } from '../../tracking/ReporterCopyButton.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { saveFile } from '../../ui/saveFile.ts';
import { notify } from '../../ui/toaster.tsx';
import { CaseLogDialog } from '../CaseLogDialog.tsx';

function useCaseDetail(id: number) {
  const { data, error, isLoading, mutate } = useApi(read('/api/v1/cases/{id}', withId(id)));
  const detail = useMemo(() => (data ? normaliseCaseDetail(data) : null), [data]);
  return { detail, error, isLoading, mutate };
}

/** Buat Catatan of a list row: the dialog once the case is read. */
export function CaseLogLoader(props: { id: number; user: User; onClose: (saved: boolean) => void }) {
  const { detail, error } = useCaseDetail(props.id);
  useEffect(() => {
    if (error) props.onClose(false); // the failure itself is reported by the global SWR onError
  }, [error, props.onClose]);
  if (!detail) return null;
  return <CaseLogDialog detail={detail} user={props.user} onClose={props.onClose} />;
}

/** Saves an attachment the gateway sends and says so ('Lampiran … berhasil di unduh'). */
async function saveAttachment(file: Promise<Download>, name: string) {
  try {
    const { blob, fileName } = await file;
    saveFile(blob, fileName ?? name);
    notify.success(format(TEMPLATE_MESSAGES.downloadSucceeded, { name: fileName ?? name }));
  } catch (e) {
    notify.problem(e);
  }
}

export function CaseDetailScreen(props: { id: number; user: User; onBack: () => void }) {
  const { detail, error, isLoading, mutate } = useCaseDetail(props.id);
  const [logOpen, setLogOpen] = useState(false);
  // Pesan once read, shared by the tab and the pelapor's copy (only for this case).
  const [messages, setMessages] = useState<{ caseId: number; list: Message[] } | null>(null);
  const subject = subjectOf(props.user);
  const type6 = props.user.userTypeId === USER_TYPES.WHISTLEBLOWER;
  useEffect(() => {
    if (error) props.onBack(); // the failure itself is reported by the global SWR onError
  }, [error, props.onBack]);
  if (isLoading || !detail) return <PageSpinner />;

  return (
    <>
      <CaseDetailView
        detail={detail}
        masked={!can(subject, 'case-logs:read-full')}
        showReporterName={!type6}
        canRevealContact={can(subject, 'case-logs:create')}
        talk={
          !can(subject, 'case-messages:read')
            ? undefined
            : {
                access: { kind: 'case', caseId: detail.id },
                audience: type6 ? 'reporter' : 'staff',
                canWrite: can(subject, 'case-messages:write'),
                ...(can(subject, 'case-evidence:add') ? { onEvidenceAdded: () => void mutate() } : {}),
                ...(type6
                  ? {
                      initialMessages: messages?.caseId === detail.id ? messages.list : null,
                      onMessages: (list: Message[]) => setMessages({ caseId: detail.id, list }),
                    }
                  : {}),
              }
        }
        onBack={props.onBack}
        actions={
          can(subject, 'case-logs:create') ? (
            <Button onClick={() => setLogOpen(true)}>Buat Catatan</Button>
          ) : type6 ? (
            // The pelapor's own report, as the tracked view offers it (docs/product/following-a-report.md).
            <ReporterCopyButton
              detail={detail}
              access={{ kind: 'case', caseId: detail.id }}
              messages={messages?.caseId === detail.id ? messages.list : null}
              onMessages={(list) => setMessages({ caseId: detail.id, list })}
              showReporterName={false}
            />
          ) : undefined
        }
        onDownloadAttachment={
          can(subject, 'case-attachments:download')
            ? (a) =>
                void saveAttachment(
                  download.GET('/api/v1/cases/{id}/attachments/{attachmentId}', {
                    params: { path: { id: String(detail.id), attachmentId: String(a.id) } },
                  }),
                  a.name,
                )
            : undefined
        }
        onDownloadLogAttachment={
          !can(subject, 'case-logs:read-full')
            ? undefined
            : (log) =>
                void saveAttachment(
                  download.GET('/api/v1/cases/{id}/logs/{logId}/attachment', {
                    params: { path: { id: String(detail.id), logId: String(log.id) } },
                  }),
                  log.attachmentName ?? 'lampiran',
                )
        }
      />
      {logOpen && (
        <CaseLogDialog
          detail={detail}
          user={props.user}
          onClose={(saved) => {
            setLogOpen(false);
            if (saved) void mutate();
          }}
        />
      )}
    </>
  );
}
