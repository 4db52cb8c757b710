import { Box, Button, HStack, Input, Progress, Stack, Text } from '@chakra-ui/react';
import { type ChangeEvent, type ReactNode, useRef } from 'react';
import { FormField } from '../../ui/FormField.tsx';
import { ACCEPT_ATTRIBUTE, formatBytes } from '../attachments.ts';
import { timeLeftText, type UploadStatus } from '../resumableUploads.ts';

export type PickedFile = { name: string; size: number };

/**
 * A file field whose every visible text is Indonesian: the native input (which reads "Choose File /
 * No file chosen" in an English browser) stays in the DOM for its label and the file dialog, but
 * out of sight; a button opens it and a line says what is chosen. Each chosen file is listed with
 * Hapus and, when the server refused it, its reason.
 */
export function FilePicker(props: {
  label: string;
  name: string;
  multiple?: boolean;
  required?: boolean;
  error?: string | undefined;
  helper: ReactNode;
  files: readonly PickedFile[];
  fileErrors: Record<string, string>;
  onChoose: (files: File[]) => void;
  onRemove: (file: PickedFile) => void;
  /** The background upload of each file, when files upload as soon as they are chosen. */
  statusOf?: (file: PickedFile) => UploadStatus | undefined;
  onPause?: (file: PickedFile) => void;
  onResume?: (file: PickedFile) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    e.target.value = '';
    props.onChoose(files);
  };
  const summary =
    props.files.length === 0
      ? 'Belum ada file dipilih'
      : props.files.length === 1
        ? `1 file dipilih`
        : `${props.files.length} file dipilih`;
  return (
    <Stack gap="2">
      <FormField label={props.label} error={props.error} required={props.required} helper={props.helper}>
        <Input
          ref={input}
          type="file"
          name={props.name}
          multiple={props.multiple}
          accept={ACCEPT_ATTRIBUTE}
          onChange={choose}
          tabIndex={-1}
          position="absolute"
          w="1px"
          h="1px"
          p="0"
          opacity={0}
          overflow="hidden"
          pointerEvents="none"
        />
        <HStack gap="3" wrap="wrap">
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => input.current?.click()}
            aria-label={`Pilih File ${props.label}`}
          >
            Pilih File
          </Button>
          <Text fontSize="sm" color="fg.muted" aria-live="polite">
            {summary}
          </Text>
        </HStack>
      </FormField>
      {props.files.map((file) => (
        <FileRow
          key={file.name}
          file={file}
          status={props.statusOf?.(file)}
          error={props.fileErrors[file.name]}
          onRemove={() => props.onRemove(file)}
          onPause={() => props.onPause?.(file)}
          onResume={() => props.onResume?.(file)}
        />
      ))}
    </Stack>
  );
}

const PHASE_TEXT: Record<UploadStatus['phase'], string> = {
  waiting: 'Menyiapkan unggahan…',
  uploading: 'Mengunggah',
  retrying: 'Koneksi terputus, mencoba lagi…',
  paused: 'Dijeda',
  checking: 'Memeriksa file…',
  accepted: 'Terunggah',
  refused: 'Ditolak',
  failed: 'Unggahan berhenti',
};

function UploadLine(props: {
  name: string;
  status: UploadStatus;
  onPause: () => void;
  onResume: () => void;
}) {
  const { status } = props;
  const percent = status.total > 0 ? Math.floor((status.sent / status.total) * 100) : 0;
  const moving = status.phase === 'uploading' || status.phase === 'retrying' || status.phase === 'waiting';
  const detail =
    status.phase === 'accepted' || status.phase === 'refused' || status.phase === 'checking'
      ? PHASE_TEXT[status.phase]
      : `${PHASE_TEXT[status.phase]} · ${percent}% · ${formatBytes(status.sent)} dari ${formatBytes(status.total)}` +
        (status.phase === 'uploading' ? ` · ${timeLeftText(status.secondsLeft)}` : '');
  return (
    <Stack gap="1" mt="1" data-upload-phase={status.phase} data-upload-percent={percent}>
      {status.phase !== 'accepted' && status.phase !== 'refused' && (
        <Progress.Root value={percent} size="xs" aria-label={`Kemajuan unggahan ${props.name}`}>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      )}
      <HStack justify="space-between" gap="2">
        <Text
          fontSize="xs"
          color={status.phase === 'accepted' ? 'fg.success' : 'fg.muted'}
          aria-live="polite"
        >
          {detail}
        </Text>
        {moving && (
          <Button size="xs" variant="outline" onClick={props.onPause} aria-label={`Jeda ${props.name}`}>
            Jeda
          </Button>
        )}
        {(status.phase === 'paused' || status.phase === 'failed') && (
          <Button size="xs" variant="outline" onClick={props.onResume} aria-label={`Lanjutkan ${props.name}`}>
            {status.phase === 'paused' ? 'Lanjutkan' : 'Coba Lagi'}
          </Button>
        )}
      </HStack>
    </Stack>
  );
}

function FileRow(props: {
  file: PickedFile;
  status: UploadStatus | undefined;
  error: string | undefined;
  onRemove: () => void;
  onPause: () => void;
  onResume: () => void;
}) {
  const { file, status } = props;
  // A refused or stopped upload says why next to the file, as the server's refusal at Simpan does.
  const error =
    status && (status.phase === 'refused' || status.phase === 'failed')
      ? (status.reason ?? props.error)
      : props.error;
  return (
    <Box
      borderWidth="1px"
      borderColor={error ? 'border.error' : undefined}
      rounded="md"
      px="3"
      py="2"
      bg={error ? 'bg.error' : 'bg.subtle'}
      data-file-error={error ? 'true' : undefined}
      data-file-name={file.name}
    >
      <HStack justify="space-between">
        <Text fontSize="sm" truncate>
          {file.name}{' '}
          <Box as="span" color="fg.muted">
            ({formatBytes(file.size)})
          </Box>
        </Text>
        <Button
          size="xs"
          variant="ghost"
          colorPalette="red"
          onClick={props.onRemove}
          aria-label={`Hapus ${file.name}`}
        >
          Hapus
        </Button>
      </HStack>
      {status && (
        <UploadLine name={file.name} status={status} onPause={props.onPause} onResume={props.onResume} />
      )}
      {error && (
        <Text fontSize="sm" color="fg.error" mt="1" whiteSpace="pre-line" role="alert">
          {error}
        </Text>
      )}
    </Box>
  );
}
