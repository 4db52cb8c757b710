import { Box, Stack, Table, Text } from '@chakra-ui/react';
import type { IdentityAccessReply } from '@wbs/shared/api/messages';
import { useEffect, useRef, useState } from 'react';
import { notify } from '../../ui/toaster.tsx';
import { formatDateTime } from '../detail.ts';
import { accessKey, type CaseAccess, fetchIdentityAccess } from './access.ts';
import { ReporterPanel } from './ReporterPanel.tsx';
import { MESSAGE_TEXTS } from './texts.ts';

/**
 * "Siapa yang melihat identitas saya" (the reporter's view only): when staff opened the case with
 * the reporter's identity, or revealed its masked contact; the date and the role, never a name.
 */
export function IdentityAccessSection({ access }: { access: CaseAccess }) {
  const [history, setHistory] = useState<IdentityAccessReply | null>(null);
  const accessRef = useRef(access);
  accessRef.current = access;
  const key = accessKey(access);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads when the case (key) changes
  useEffect(() => {
    let live = true;
    fetchIdentityAccess(accessRef.current)
      .then((reply) => live && setHistory(reply))
      .catch((e: unknown) => live && notify.problem(e));
    return () => {
      live = false;
    };
  }, [key]);
  if (!history) return null;
  return (
    <ReporterPanel title={MESSAGE_TEXTS.identityTitle}>
      <Stack gap="3">
        <Text fontSize="sm" color="fg.muted">
          {history.identified ? MESSAGE_TEXTS.identityIntro : MESSAGE_TEXTS.identityAnonymous}
        </Text>
        {history.entries.length === 0 ? (
          <Text>{MESSAGE_TEXTS.identityEmpty}</Text>
        ) : (
          <Box overflowX="auto">
            <Table.Root size="sm" aria-label={MESSAGE_TEXTS.identityTitle}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Tanggal</Table.ColumnHeader>
                  <Table.ColumnHeader>Peran</Table.ColumnHeader>
                  <Table.ColumnHeader>Akses</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {history.entries.map((entry, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: history rows carry no id
                  <Table.Row key={index} data-testid="identity-access">
                    <Table.Cell whiteSpace="nowrap">{formatDateTime(entry.accessedAt)}</Table.Cell>
                    <Table.Cell>{entry.role}</Table.Cell>
                    <Table.Cell>
                      {entry.kind === 'contact-reveal'
                        ? MESSAGE_TEXTS.identityReveal
                        : MESSAGE_TEXTS.identityRead}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        )}
      </Stack>
    </ReporterPanel>
  );
}
