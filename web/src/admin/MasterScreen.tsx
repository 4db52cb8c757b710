import { Box, Button, Flex, Heading, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { DEFAULT_PAGE_SIZE, UI_MESSAGES } from '@wbs/shared';
import { type ReactNode, useState } from 'react';
import useSWR from 'swr';
import { api } from '../api/client.ts';
import type { MessageReply } from '../api/types.ts';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';

export type FormMode = { kind: 'add' } | { kind: 'view' | 'edit'; id: number };

export type Column<T> = { header: string; cell: (row: T) => ReactNode };

type ListReply<T> = { items: T[]; total?: number; page?: number; pageSize?: number };

/**
 * A master-data screen: a paged table with Lihat / Ubah / Hapus per row and a Tambah button; the
 * form (Add, View, Edit) replaces the list and returns to it.
 */
export function MasterScreen<T extends { id: number }>(props: {
  title: string;
  addLabel: string;
  path: string;
  columns: Column<T>[];
  rowName: (row: T) => string;
  deleteTitle: string;
  deleteMessage: string;
  renderForm: (
    mode: FormMode,
    done: (saved: boolean) => void,
    switchTo: (mode: FormMode) => void,
  ) => ReactNode;
}) {
  const [mode, setMode] = useState<FormMode | null>(null);
  const [page, setPage] = useState(1);
  const pageSize = DEFAULT_PAGE_SIZE;
  const list = useSWR<ListReply<T>>(`${props.path}?page=${page}&pageSize=${pageSize}`, {
    keepPreviousData: true,
  });
  const confirm = useConfirm();
  const loading = useLoading();
  const total = list.data?.total ?? list.data?.items.length ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / pageSize));

  if (mode) {
    return (
      <>
        {props.renderForm(
          mode,
          (saved) => {
            setMode(null);
            if (saved) void list.mutate();
          },
          setMode,
        )}
      </>
    );
  }

  const remove = async (row: T) => {
    const ok = await confirm({
      title: props.deleteTitle,
      message: props.deleteMessage,
      actionLabel: 'Hapus',
    });
    if (!ok) return;
    loading.show();
    try {
      const reply = await api<MessageReply | undefined>(`${props.path}/${row.id}`, { method: 'DELETE' });
      if (reply?.message) notify.success(reply.message);
      await list.mutate();
    } catch (error) {
      notify.problem(error);
    } finally {
      loading.hide();
    }
  };

  const rows = list.data?.items ?? [];
  const span = props.columns.length + 1;
  return (
    <Stack gap="5">
      <Flex justify="space-between" align="center" wrap="wrap" gap="3">
        <Heading as="h1" size="2xl">
          {props.title}
        </Heading>
        <Button onClick={() => setMode({ kind: 'add' })}>{props.addLabel}</Button>
      </Flex>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto">
        <Table.Root size="sm" aria-label={props.title}>
          <Table.Header>
            <Table.Row>
              {props.columns.map((c) => (
                <Table.ColumnHeader key={c.header}>{c.header}</Table.ColumnHeader>
              ))}
              <Table.ColumnHeader>Aksi</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {list.isLoading && (
              <Table.Row>
                <Table.Cell colSpan={span}>
                  <PageSpinner />
                </Table.Cell>
              </Table.Row>
            )}
            {!list.isLoading && rows.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={span} textAlign="center" color="fg.muted" py="6">
                  {UI_MESSAGES.notFoundData}
                </Table.Cell>
              </Table.Row>
            )}
            {rows.map((row) => (
              <Table.Row key={row.id}>
                {props.columns.map((c) => (
                  <Table.Cell key={c.header}>{c.cell(row)}</Table.Cell>
                ))}
                <Table.Cell>
                  <HStack gap="1">
                    <Button size="xs" variant="outline" onClick={() => setMode({ kind: 'view', id: row.id })}>
                      Lihat
                    </Button>
                    <Button size="xs" variant="outline" onClick={() => setMode({ kind: 'edit', id: row.id })}>
                      Ubah
                    </Button>
                    <Button size="xs" variant="outline" colorPalette="red" onClick={() => void remove(row)}>
                      Hapus
                    </Button>
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
      {totalPages > 1 && (
        <HStack gap="2" justify="flex-end">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Sebelumnya
          </Button>
          <Text fontSize="sm">
            Halaman {page} dari {totalPages}
          </Text>
          <Button
            size="sm"
            variant="outline"
            disabled={page >= totalPages}
            onClick={() => setPage((p) => p + 1)}
          >
            Berikutnya
          </Button>
        </HStack>
      )}
    </Stack>
  );
}

/** Frame of a master form: title, card, and the Kembali / Ubah / Simpan buttons. */
export function MasterFormFrame(props: {
  title: string;
  readOnly: boolean;
  onBack: () => void;
  onEdit?: () => void;
  onSubmit: () => void;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack gap="5" maxW="3xl">
      <Heading as="h1" size="2xl">
        {props.title}
      </Heading>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '4', md: '6' }}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!props.readOnly) props.onSubmit();
          }}
        >
          <Stack gap="4">
            {props.children}
            <Flex gap="2" justify="flex-end" wrap="wrap">
              {props.extra}
              <Button variant="outline" type="button" onClick={props.onBack}>
                Kembali
              </Button>
              {props.readOnly ? (
                props.onEdit && (
                  <Button type="button" onClick={props.onEdit}>
                    Ubah
                  </Button>
                )
              ) : (
                <Button type="submit">Simpan</Button>
              )}
            </Flex>
          </Stack>
        </form>
      </Box>
    </Stack>
  );
}
