/**
 * Register Pemusnahan: the cases whose retention period ended. The gateway's scan (nightly, or
 * Periksa sekarang) deletes what the gateway stored of them and lists them here; the officer destroys
 * each in the legacy (opened by its id: the register holds no complaint number and no reporter data)
 * and attests it with Tandai sudah dimusnahkan. Two lists: Menunggu (overdue ones among them) and
 * Sudah dimusnahkan.
 */
import { Box, Button, Flex, Heading, HStack, Link, Stack, Table, Text } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared';
import { format } from '@wbs/shared/messages';
import { useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { Link as RouterLink } from 'wouter';
import { useApi } from '../../api/useApi.ts';
import { useLoading } from '../../ui/LoadingOverlay.tsx';
import { Pager } from '../../ui/Pager.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { notify } from '../../ui/toaster.tsx';
import { type DisposalItem, disposals, type RegisterFilter, scanNow } from './calls.ts';
import { MarkDestroyedDialog } from './MarkDestroyedDialog.tsx';
import { dayDisplay, STATE_LABELS, REGISTER_TEXTS as T, wibTime } from './texts.ts';

const PAGE_SIZE = 25;

/** Every read of the register and its summary (the landing banner's), read again after a change. */
const isDisposalKey = (key: unknown) => typeof key === 'string' && key.startsWith('/api/v1/disposals');

function StateCell({ item }: { item: DisposalItem }) {
  return (
    <Stack gap="0.5">
      <Text
        fontWeight={item.state === 'overdue' ? 'semibold' : undefined}
        color={item.state === 'overdue' ? 'fg.error' : undefined}
      >
        {STATE_LABELS[item.state]}
      </Text>
      {item.state === 'destroyed' && (
        <Text fontSize="xs" color="fg.muted">
          {wibTime(item.destroyedAt)}
          {item.destroyedByName && ` ${format(T.destroyedBy, { name: item.destroyedByName })}`}
        </Text>
      )}
      {item.note && (
        <Text fontSize="xs" color="fg.muted" whiteSpace="pre-wrap">
          {T.note}: {item.note}
        </Text>
      )}
    </Stack>
  );
}

export default function DisposalRegisterPage() {
  const [filter, setFilter] = useState<RegisterFilter>('waiting');
  const [page, setPage] = useState(1);
  const { data, isLoading } = useApi(disposals(filter, page, PAGE_SIZE), { keepPreviousData: true });
  const { mutate } = useSWRConfig();
  const loading = useLoading();
  const [marking, setMarking] = useState<DisposalItem | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const trigger = useRef<HTMLButtonElement | null>(null);
  const marked = useRef(false);

  const refresh = () => mutate(isDisposalKey);

  const scan = async () => {
    loading.show();
    try {
      const reply = await scanNow();
      notify.success(format(T.scanDone, { registered: reply.registered, purged: reply.purged }));
      await refresh();
    } catch (error) {
      notify.problem(error);
    } finally {
      loading.hide();
    }
  };

  const choose = (next: RegisterFilter) => {
    setFilter(next);
    setPage(1);
  };

  const items = data?.items ?? [];
  const totalPages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));
  const waitingList = filter === 'waiting';
  const columns = waitingList ? 8 : 7;

  return (
    <Stack gap="5">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="2xl" ref={heading} tabIndex={-1} outline="none">
          {T.title}
        </Heading>
        <Button onClick={() => void scan()}>{T.scan}</Button>
      </Flex>
      <Text color="fg.muted" maxW="3xl">
        {T.intro}
      </Text>
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <HStack gap="2" role="group" aria-label={T.filterLabel}>
          {(['waiting', 'destroyed'] as const).map((option) => (
            <Button
              key={option}
              size="sm"
              variant={filter === option ? 'solid' : 'outline'}
              aria-pressed={filter === option}
              onClick={() => choose(option)}
            >
              {option === 'waiting' ? T.waiting : T.destroyed}
            </Button>
          ))}
        </HStack>
        {data && (
          <Text fontSize="sm" color="fg.muted" aria-live="polite">
            {format(T.summary, data.summary)}
          </Text>
        )}
      </Flex>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto">
        {/* The previous page stays on screen while the next one loads (no jump to a spinner). */}
        {isLoading && !data ? (
          <PageSpinner />
        ) : (
          <Table.Root size="sm" aria-label={T.title}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{T.company}</Table.ColumnHeader>
                <Table.ColumnHeader>{T.caseId}</Table.ColumnHeader>
                <Table.ColumnHeader>{T.status}</Table.ColumnHeader>
                <Table.ColumnHeader>{T.closedAt}</Table.ColumnHeader>
                <Table.ColumnHeader>{T.dueAt}</Table.ColumnHeader>
                <Table.ColumnHeader>{T.storePurgedAt}</Table.ColumnHeader>
                <Table.ColumnHeader>{T.state}</Table.ColumnHeader>
                {waitingList && <Table.ColumnHeader>{T.actions}</Table.ColumnHeader>}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {items.length === 0 && (
                <Table.Row>
                  <Table.Cell colSpan={columns} textAlign="center" color="fg.muted" py="6">
                    {UI_MESSAGES.notFoundData}
                  </Table.Cell>
                </Table.Row>
              )}
              {items.map((item) => (
                <Table.Row key={item.id}>
                  <Table.Cell>{item.companyName}</Table.Cell>
                  <Table.Cell>
                    <Link asChild color="brand.fg" textDecoration="underline">
                      <RouterLink
                        href={`~/admin/case/${item.caseId}`}
                        aria-label={format(T.openCase, { id: item.caseId })}
                      >
                        {item.caseId}
                      </RouterLink>
                    </Link>
                  </Table.Cell>
                  {/* Empty when the legacy's status table could not name it. */}
                  <Table.Cell>{item.statusName || '-'}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{wibTime(item.closedAt)}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{dayDisplay(item.dueAt)}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">
                    {item.storePurgedAt ? wibTime(item.storePurgedAt) : T.notPurged}
                  </Table.Cell>
                  <Table.Cell>
                    <StateCell item={item} />
                  </Table.Cell>
                  {waitingList && (
                    <Table.Cell>
                      {item.state !== 'destroyed' && (
                        <Button
                          size="xs"
                          variant="outline"
                          aria-label={format(T.markFor, { id: item.caseId, company: item.companyName })}
                          onClick={(e) => {
                            trigger.current = e.currentTarget;
                            marked.current = false;
                            setMarking(item);
                            setDialogOpen(true);
                          }}
                        >
                          {T.mark}
                        </Button>
                      )}
                    </Table.Cell>
                  )}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Box>
      {(data?.total ?? 0) > 0 && <Pager page={page} totalPages={totalPages} onPage={setPage} />}
      {marking && (
        <MarkDestroyedDialog
          key={marking.id}
          item={marking}
          open={dialogOpen}
          // The marked row leaves the list with its button: the focus goes to the page's heading.
          finalFocus={() => (marked.current ? heading.current : trigger.current)}
          onClose={(done) => {
            marked.current = done;
            setDialogOpen(false);
            if (done) {
              // The last row of a later page marked: back one page rather than an empty one.
              if (items.length === 1 && page > 1) setPage(page - 1);
              void refresh();
            }
          }}
          onExitComplete={() => setMarking(null)}
        />
      )}
    </Stack>
  );
}
