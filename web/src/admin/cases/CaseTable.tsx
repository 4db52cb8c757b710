/**
 * The case list's table and its footer (rows per page, total, pages). Each row opens its detail
 * (Lihat) and, for handlers who may, Buat Catatan. A reporter's table has no line and no deadline
 * column.
 */
import { Box, Button, Flex, HStack, NativeSelect, Table, Text } from '@chakra-ui/react';
import { PAGE_SIZES, UI_MESSAGES } from '@wbs/shared';
import { StatusBadge } from '../../case/CaseDetailView.tsx';
import { formatDateTime } from '../../case/detail.ts';
import { CLOCK_TEXTS, DeadlineCell } from '../../case/HandlingClock.tsx';
import { MessageMark } from '../../case/messages/MessageMark.tsx';
import type { CaseSearchReply } from '../../case/search.ts';
import { Pager } from '../../ui/Pager.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';

/** DD/MM/YYYY over HH:mm: the date column stays narrow and never cuts the date. */
function DateTimeLines({ iso }: { iso: string }) {
  const [date, time] = formatDateTime(iso).split(' ');
  return (
    <>
      <Text whiteSpace="nowrap">{date}</Text>
      {time && (
        <Text whiteSpace="nowrap" fontSize="xs" color="fg.muted">
          {time}
        </Text>
      )}
    </>
  );
}

export function CaseTable(props: {
  /** The search's state (the previous page stays shown while the next one loads). */
  list: { data?: CaseSearchReply | undefined; error?: unknown; isLoading: boolean; isValidating: boolean };
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
  /** No company chosen yet: the table asks for one instead of showing rows. */
  waitingForCompany: boolean;
  whistleblower: boolean;
  /** Buat Catatan per row (handlers who may write activity logs). */
  canLog: boolean;
  onOpen: (id: number) => void;
  onLog: (id: number) => void;
}) {
  const { list, page, pageSize, waitingForCompany, whistleblower } = props;
  const columns = whistleblower ? 6 : 8;
  const totalPages = Math.max(1, Math.ceil((list.data?.total ?? 0) / pageSize));
  return (
    <>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto">
        <Table.Root
          size="sm"
          aria-label="Daftar laporan"
          aria-busy={list.isValidating}
          // Eight columns beside the side menu at 1024 px: slightly narrower cell padding.
          css={{ '& th, & td': { paddingInline: '1.5' } }}
        >
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>No</Table.ColumnHeader>
              <Table.ColumnHeader>Tanggal</Table.ColumnHeader>
              <Table.ColumnHeader>Nomor Laporan</Table.ColumnHeader>
              <Table.ColumnHeader>Kategori</Table.ColumnHeader>
              {!whistleblower && <Table.ColumnHeader>Jalur Otorisasi</Table.ColumnHeader>}
              <Table.ColumnHeader>Status</Table.ColumnHeader>
              {!whistleblower && <Table.ColumnHeader>{CLOCK_TEXTS.column}</Table.ColumnHeader>}
              <Table.ColumnHeader>Aksi</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {waitingForCompany && (
              <Table.Row>
                <Table.Cell colSpan={columns} textAlign="center" color="fg.muted" py="6">
                  {UI_MESSAGES.choosePartnerCompany}
                </Table.Cell>
              </Table.Row>
            )}
            {!waitingForCompany && list.isLoading && (
              <Table.Row>
                <Table.Cell colSpan={columns}>
                  <PageSpinner />
                </Table.Cell>
              </Table.Row>
            )}
            {!waitingForCompany && Boolean(list.error) && !list.data && (
              <Table.Row>
                <Table.Cell colSpan={columns} textAlign="center" color="fg.muted" py="6">
                  {UI_MESSAGES.notFoundData}
                </Table.Cell>
              </Table.Row>
            )}
            {list.data && list.data.items.length === 0 && !waitingForCompany && (
              <Table.Row>
                <Table.Cell colSpan={columns} textAlign="center" color="fg.muted" py="6">
                  {UI_MESSAGES.notFoundData}
                </Table.Cell>
              </Table.Row>
            )}
            {!waitingForCompany &&
              list.data?.items.map((item, index) => (
                <Table.Row key={item.id}>
                  <Table.Cell>{(page - 1) * pageSize + index + 1}</Table.Cell>
                  <Table.Cell>
                    <DateTimeLines iso={item.createdAt} />
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">
                    {item.number}
                    <MessageMark unread={item.unreadFromReporter} />
                  </Table.Cell>
                  <Table.Cell>{item.categoryName ?? '-'}</Table.Cell>
                  {!whistleblower && <Table.Cell>{item.caseLineName ?? '-'}</Table.Cell>}
                  <Table.Cell>
                    <StatusBadge status={item.status} wrap />
                  </Table.Cell>
                  {!whistleblower && (
                    <Table.Cell>
                      <DeadlineCell handling={item.handling} />
                    </Table.Cell>
                  )}
                  <Table.Cell>
                    <Flex gap="1" wrap="wrap">
                      <Button size="xs" variant="outline" onClick={() => props.onOpen(item.id)}>
                        Lihat
                      </Button>
                      {props.canLog && (
                        <Button size="xs" variant="outline" onClick={() => props.onLog(item.id)}>
                          Buat Catatan
                        </Button>
                      )}
                    </Flex>
                  </Table.Cell>
                </Table.Row>
              ))}
          </Table.Body>
        </Table.Root>
      </Box>

      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <HStack gap="2">
          <Text fontSize="sm" id="page-size-label">
            Baris per halaman
          </Text>
          <NativeSelect.Root size="sm" w="20">
            <NativeSelect.Field
              aria-labelledby="page-size-label"
              value={pageSize}
              onChange={(e) => props.onPageSize(Number(e.currentTarget.value))}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Text fontSize="sm" color="fg.muted">
            Total {list.data?.total ?? 0}
          </Text>
        </HStack>
        <Pager page={page} totalPages={totalPages} onPage={props.onPage} />
      </Flex>
    </>
  );
}
