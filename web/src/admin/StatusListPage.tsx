import { Box, Heading, Stack, Table } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared';
import { read } from '../api/client.ts';
import { useApi } from '../api/useApi.ts';
import { StatusBadge } from '../case/CaseDetailView.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';

/** Status Laporan: read-only, sorted by order, no paging. */
export function StatusListPage() {
  const { data, isLoading, error } = useApi(read('/api/v1/case-statuses'));
  const rows = [...(data?.items ?? [])].sort((a, b) => a.order - b.order);
  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        Status Laporan
      </Heading>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto" maxW="2xl">
        {isLoading ? (
          <PageSpinner />
        ) : (
          <Table.Root size="sm" aria-label="Status Laporan">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader>Urutan</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {(error || rows.length === 0) && (
                <Table.Row>
                  <Table.Cell colSpan={2} textAlign="center" color="fg.muted">
                    {UI_MESSAGES.notFoundData}
                  </Table.Cell>
                </Table.Row>
              )}
              {rows.map((s) => (
                <Table.Row key={s.id}>
                  <Table.Cell>
                    <StatusBadge status={s} />
                  </Table.Cell>
                  <Table.Cell>{s.order}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Box>
    </Stack>
  );
}
