/**
 * Surel Gagal Terkirim (administrator): the mails that failed every retry, by kind of mail and since
 * when, each with Kirim ulang (confirm → send back to its queue → the list again). The gateway keeps
 * no address or content in them, so none is shown.
 */
import { Box, Button, Heading, Stack, Table, Text } from '@chakra-ui/react';
import { ApiError, api, read } from '../api/client.ts';
import { useApi } from '../api/useApi.ts';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import { DEAD_LETTER_TEXTS, mailQueueLabel, wibDisplay } from './notices.ts';

export default function DeadLettersPage() {
  const { data, error, isLoading, mutate } = useApi(read('/api/v1/mail/dead-letters'));
  const confirm = useConfirm();
  const loading = useLoading();
  const rows = data?.items ?? [];

  const retry = async (id: string) => {
    const ok = await confirm({
      title: DEAD_LETTER_TEXTS.confirmTitle,
      message: DEAD_LETTER_TEXTS.confirmMessage,
      actionLabel: 'Oke',
    });
    if (!ok) return;
    loading.show();
    try {
      const reply = await api.POST('/api/v1/mail/dead-letters/{id}/retry', { params: { path: { id } } });
      notify.success(reply.message);
      await mutate();
    } catch (failure) {
      notify.problem(failure);
      // Sent back already (another tab, another administrator): the list drops it.
      if (failure instanceof ApiError && failure.status === 404) await mutate();
    } finally {
      loading.hide();
    }
  };

  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        {DEAD_LETTER_TEXTS.title}
      </Heading>
      <Text color="fg.muted" maxW="3xl">
        {DEAD_LETTER_TEXTS.intro}
      </Text>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto" maxW="3xl">
        {isLoading ? (
          <PageSpinner />
        ) : (
          <Table.Root size="sm" aria-label={DEAD_LETTER_TEXTS.title}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{DEAD_LETTER_TEXTS.queue}</Table.ColumnHeader>
                <Table.ColumnHeader>{DEAD_LETTER_TEXTS.since}</Table.ColumnHeader>
                <Table.ColumnHeader>{DEAD_LETTER_TEXTS.actions}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.length === 0 && (
                <Table.Row>
                  <Table.Cell colSpan={3} textAlign="center" color="fg.muted" py="6">
                    {error !== undefined && !data ? DEAD_LETTER_TEXTS.loadFailed : DEAD_LETTER_TEXTS.empty}
                  </Table.Cell>
                </Table.Row>
              )}
              {rows.map((row) => {
                const label = mailQueueLabel(row.queue);
                const since = wibDisplay(row.createdAt);
                return (
                  <Table.Row key={row.id}>
                    <Table.Cell>{label}</Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{since}</Table.Cell>
                    <Table.Cell>
                      <Button
                        size="xs"
                        variant="outline"
                        aria-label={`${DEAD_LETTER_TEXTS.retry} ${label} ${since}`}
                        onClick={() => void retry(row.id)}
                      >
                        {DEAD_LETTER_TEXTS.retry}
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                );
              })}
            </Table.Body>
          </Table.Root>
        )}
      </Box>
    </Stack>
  );
}
