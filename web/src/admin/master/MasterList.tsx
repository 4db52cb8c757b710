import { Box, Button, Flex, Heading, HStack, Stack, Table } from '@chakra-ui/react';
import { DEFAULT_PAGE_SIZE, UI_MESSAGES } from '@wbs/shared';
import { useState } from 'react';
import { useApi } from '../../api/useApi.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { useLoading } from '../../ui/LoadingOverlay.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { notify } from '../../ui/toaster.tsx';
import type { MasterScreenSpec } from './types.ts';

/**
 * The list of a master screen: a (paged) table with Lihat / Ubah (/ Hapus) per row and the Tambah
 * button. Delete is confirm → call → success message → table reload (spec section 4).
 */
export function MasterList<T extends { id: number }, B>(props: {
  spec: MasterScreenSpec<T, B>;
  onOpen: (kind: 'add' | 'view' | 'edit', row?: T) => void;
}) {
  const { spec } = props;
  const [page, setPage] = useState(1);
  const pageSize = DEFAULT_PAGE_SIZE;
  const list = useApi(spec.api.list({ page, pageSize }), { keepPreviousData: true });
  const confirm = useConfirm();
  const loading = useLoading();
  const rows = list.data?.items ?? [];
  const total = list.data?.total ?? rows.length;
  const totalPages = spec.paged ? Math.max(1, Math.ceil(total / pageSize)) : 1;

  const remove = async (row: T) => {
    if (!spec.remove) return;
    const { call, ...texts } = spec.remove;
    if (!(await confirm({ ...texts, actionLabel: 'Hapus' }))) return;
    loading.show();
    try {
      const reply = await call(row.id);
      if (reply?.message) notify.success(reply.message);
      await list.mutate();
    } catch (error) {
      notify.problem(error);
    } finally {
      loading.hide();
    }
  };

  const span = spec.columns.length + 1;
  return (
    <Stack gap="5">
      <Flex justify="space-between" align="center" wrap="wrap" gap="3">
        <Heading as="h1" size="2xl">
          {spec.title}
        </Heading>
        <Button onClick={() => props.onOpen('add')}>{spec.addLabel}</Button>
      </Flex>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto">
        <Table.Root size="sm" aria-label={spec.title}>
          <Table.Header>
            <Table.Row>
              {spec.columns.map((c) => (
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
                {spec.columns.map((c) => (
                  <Table.Cell key={c.header}>{c.cell(row)}</Table.Cell>
                ))}
                <Table.Cell>
                  <HStack gap="1">
                    <Button size="xs" variant="outline" onClick={() => props.onOpen('view', row)}>
                      Lihat
                    </Button>
                    <Button size="xs" variant="outline" onClick={() => props.onOpen('edit', row)}>
                      Ubah
                    </Button>
                    {spec.remove && (
                      <Button size="xs" variant="outline" colorPalette="red" onClick={() => void remove(row)}>
                        Hapus
                      </Button>
                    )}
                  </HStack>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
      {totalPages > 1 && (
        <Flex justify="flex-end">
          <Pager page={page} totalPages={totalPages} onPage={setPage} />
        </Flex>
      )}
    </Stack>
  );
}
