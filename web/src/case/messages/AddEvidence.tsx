import { Button, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { ATTACHMENTS_PER_CASE } from '@wbs/shared/constants';
import { format, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import { useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { notify } from '../../ui/toaster.tsx';
import { ACCEPTED_FILES_HELP, fileErrorsFrom, fileProblem } from '../attachments.ts';
import { useResumableUploads } from '../resumableUploads.ts';
import { FilePicker, type PickedFile } from '../wizard/FilePicker.tsx';
import {
  addEvidence,
  type CaseAccess,
  type EvidenceReply,
  isRetryable,
  newIdempotencyKey,
  openEvidenceDraft,
} from './access.ts';
import { ReporterPanel } from './ReporterPanel.tsx';
import { MESSAGE_TEXTS } from './texts.ts';

/**
 * Tambah Bukti: the reporter adds attachments to its case, with the wizard's checks (type, 10 MB,
 * duplicate names, at most 5 per case counting those already there) before anything is sent; the
 * gateway checks, scrubs and counts again. Each chosen file uploads at once, resumably, into a draft of
 * this case (the wizard's rows: progress, Jeda/Lanjutkan, Coba Lagi, a refusal next to the file);
 * Kirim files the draft. One Idempotency-Key per chosen set, reused on retry.
 */
export function AddEvidence(props: {
  access: CaseAccess;
  existingNames: readonly string[];
  onAdded: (reply: EvidenceReply) => void;
}) {
  const [files, setFiles] = useState<File[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [fileErrors, setFileErrors] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<number | null>(null);
  const key = useRef<string | null>(null);
  const uploads = useResumableUploads(() => openEvidenceDraft(props.access));
  const remaining = Math.max(0, ATTACHMENTS_PER_CASE - props.existingNames.length);

  const choose = (incoming: File[]) => {
    key.current = null;
    setFileErrors({});
    const names = new Set([...props.existingNames, ...files.map((f) => f.name)].map((n) => n.toLowerCase()));
    const next = [...files];
    const messages: string[] = [];
    let over = false;
    for (const file of incoming) {
      const problem = fileProblem(file);
      if (problem) messages.push(problem);
      else if (names.has(file.name.toLowerCase()))
        messages.push(format(TEMPLATE_MESSAGES.fileDuplicate, { name: file.name }));
      else if (next.length >= remaining) over = true;
      else {
        names.add(file.name.toLowerCase());
        next.push(file);
      }
    }
    if (over) messages.push(format(TEMPLATE_MESSAGES.tooManyAttachments, { limit: ATTACHMENTS_PER_CASE }));
    if (messages.length) notify.warning(messages);
    for (const file of next) if (!files.includes(file)) uploads.add(file, 'attachments');
    setFiles(next);
    setError(undefined);
  };
  const statusOf = (file: PickedFile) => uploads.statuses.get(file as File);

  async function submit() {
    if (files.length === 0) {
      setError(MESSAGE_TEXTS.evidenceNone);
      return;
    }
    key.current ??= newIdempotencyKey();
    setProgress(0);
    try {
      // Files still on their way are waited for (their rows show how far each is).
      if (uploads.mode === 'resumable') await uploads.settled();
      const draftToken = await uploads.token();
      let reply: EvidenceReply;
      for (let attempt = 0; ; attempt += 1) {
        try {
          reply = await addEvidence(props.access, files, key.current, setProgress, draftToken);
          break;
        } catch (e) {
          if (attempt >= 2 || !isRetryable(e)) throw e;
          await new Promise((resolve) => setTimeout(resolve, 800 * (attempt + 1)));
        }
      }
      key.current = null;
      setFiles([]);
      uploads.reset();
      notify.success(MESSAGE_TEXTS.evidenceSent);
      props.onAdded(reply);
    } catch (e) {
      if (e instanceof ApiError && e.status !== 0 && e.status < 500) key.current = null;
      if (e instanceof ApiError && Object.keys(e.fieldErrors).length > 0) {
        const placed = fileErrorsFrom(e.fieldErrors, null, files);
        setFileErrors(placed.byFile);
        const rest = Object.values(placed.unplaced);
        if (rest.length) setError(rest.join('\n'));
      } else notify.problem(e);
    } finally {
      setProgress(null);
    }
  }

  return (
    <ReporterPanel title={MESSAGE_TEXTS.evidenceTitle}>
      <Stack gap="3">
        <Text fontSize="sm" color="fg.muted">
          {MESSAGE_TEXTS.evidenceIntro}{' '}
          {remaining > 0 ? MESSAGE_TEXTS.evidenceRemaining.replace('{n}', String(remaining)) : ''}
        </Text>
        {remaining === 0 ? (
          <Text>{MESSAGE_TEXTS.evidenceFull}</Text>
        ) : (
          <>
            <FilePicker
              label="Lampiran Tambahan"
              name="attachments"
              multiple
              error={error}
              helper={ACCEPTED_FILES_HELP}
              files={files}
              fileErrors={fileErrors}
              onChoose={choose}
              onRemove={(file) => {
                key.current = null;
                uploads.remove(file as File);
                setFiles(files.filter((f) => f !== file));
              }}
              statusOf={statusOf}
              onPause={(file) => uploads.pause(file as File)}
              onResume={(file) => uploads.resume(file as File)}
            />
            {progress !== null && (
              <Progress.Root value={Math.round(progress * 100)} size="sm" aria-label="Kemajuan unggah">
                <Progress.Track>
                  <Progress.Range />
                </Progress.Track>
              </Progress.Root>
            )}
            <HStack justify="flex-end">
              <Button onClick={() => void submit()} loading={progress !== null} disabled={progress !== null}>
                {MESSAGE_TEXTS.evidenceSend}
              </Button>
            </HStack>
          </>
        )}
      </Stack>
    </ReporterPanel>
  );
}
