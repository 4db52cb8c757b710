import { Box, Button, Checkbox, HStack, List, Stack, Text } from '@chakra-ui/react';
import { useId, useState } from 'react';
import { copyText } from '../case/copyText.ts';
import { saveFile } from '../ui/saveFile.ts';
import { notify } from '../ui/toaster.tsx';
import { SECOND_FACTOR_TEXTS as T } from './texts.ts';

/** The codes as the file Unduh saves: a header line, then one code per line. */
export const recoveryCodesText = (codes: readonly string[]): string =>
  `${T.recoveryFileHeader}\r\n\r\n${codes.join('\r\n')}\r\n`;

/**
 * Kode Pemulihan, shown once (the gateway keeps only their hashes): Salin, Unduh (.txt), and a
 * checkbox the user ticks before going on, so nobody leaves without having kept them.
 */
export function RecoveryCodes(props: { codes: readonly string[]; doneLabel: string; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  const listId = useId();

  const copy = async () => {
    if (await copyText(props.codes.join('\n'))) notify.success(T.copied);
    else notify.warning(T.copyFailed);
  };
  const download = () =>
    saveFile(
      new Blob([recoveryCodesText(props.codes)], { type: 'text/plain;charset=utf-8' }),
      T.recoveryFileName,
    );

  return (
    <Stack gap="4">
      <Text>{T.recoveryIntro}</Text>
      <Box bg="bg.muted" rounded="md" p="4">
        <Text id={listId} srOnly>
          {T.recoveryListLabel}
        </Text>
        <List.Root
          aria-labelledby={listId}
          listStyleType="none"
          display="grid"
          gridTemplateColumns={{ base: '1fr', sm: '1fr 1fr' }}
          gap="1"
          fontFamily="mono"
          fontSize="md"
        >
          {props.codes.map((code) => (
            <List.Item key={code}>{code}</List.Item>
          ))}
        </List.Root>
      </Box>
      <HStack gap="2" wrap="wrap">
        <Button variant="outline" onClick={() => void copy()}>
          {T.copy}
        </Button>
        <Button variant="outline" onClick={download}>
          {T.download}
        </Button>
      </HStack>
      <Checkbox.Root checked={saved} onCheckedChange={(e) => setSaved(e.checked === true)}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label>{T.recoverySaved}</Checkbox.Label>
      </Checkbox.Root>
      <Button alignSelf="flex-end" disabled={!saved} onClick={props.onDone}>
        {props.doneLabel}
      </Button>
    </Stack>
  );
}
