import { Box, Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { type ChangeEvent, type ReactNode, useRef } from 'react';
import { FormField } from '../../ui/FormField.tsx';
import { ACCEPT_ATTRIBUTE, formatBytes } from '../attachments.ts';

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
          error={props.fileErrors[file.name]}
          onRemove={() => props.onRemove(file)}
        />
      ))}
    </Stack>
  );
}

function FileRow(props: { file: PickedFile; error: string | undefined; onRemove: () => void }) {
  const { file, error } = props;
  return (
    <Box
      borderWidth="1px"
      borderColor={error ? 'border.error' : undefined}
      rounded="md"
      px="3"
      py="2"
      bg={error ? 'bg.error' : 'bg.subtle'}
      data-file-error={error ? 'true' : undefined}
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
      {error && (
        <Text fontSize="sm" color="fg.error" mt="1" whiteSpace="pre-line" role="alert">
          {error}
        </Text>
      )}
    </Box>
  );
}
