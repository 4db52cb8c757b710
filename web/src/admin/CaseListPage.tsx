import {
  Box,
  Button,
  Checkbox,
  Flex,
  Heading,
  HStack,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import {
  can,
  DEFAULT_PAGE_SIZE,
  displayToIso,
  FIELD_MESSAGES,
  format,
  isoToDisplay,
  isValidIsoDate,
  monthToDateRange,
  PAGE_SIZES,
  TEMPLATE_MESSAGES,
  toIsoDate,
  UI_MESSAGES,
  USER_TYPES,
} from '@wbs/shared';
import { useEffect, useMemo, useState } from 'react';
import useSWR from 'swr';
import { useLocation, useSearch } from 'wouter';
import { api, download } from '../api/client.ts';
import type { CaseCategory, CaseListItem, CaseStatus, Items, Option, Page, User } from '../api/types.ts';
import { subjectOf } from '../api/types.ts';
import { CaseDetailView, StatusBadge } from '../case/CaseDetailView.tsx';
import { type CaseDetail, formatDateTime, normaliseCaseDetail } from '../case/detail.ts';
import { CLOCK_TEXTS, DeadlineCell } from '../case/HandlingClock.tsx';
import { MessageMark, useMessageMarks } from '../case/messages/MessageMark.tsx';
import { rememberCompany, rememberedCompany } from '../dashboard/companyChoice.ts';
import { DateField } from '../ui/DateField.tsx';
import { FormField } from '../ui/FormField.tsx';
import { Pager } from '../ui/Pager.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { SelectInput } from '../ui/SelectInput.tsx';
import { notify } from '../ui/toaster.tsx';
import { CaseLogDialog } from './CaseLogDialog.tsx';

type Filters = {
  from: string;
  to: string;
  number: string;
  categoryId: number;
  caseLineId: number;
  statusId: number;
  companyId: number;
  /** Only reports past their handling deadline (issue 12). */
  overdue: boolean;
};

function saveDownload(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type DateLimits = { min?: string | undefined; max: string; maxMessage: string };

/** Why a typed DD/MM/YYYY filter date cannot apply; nothing while it is still being typed. */
function filterDateError(text: string, limits: DateLimits): string | undefined {
  if (text.length < 10) return undefined;
  const iso = displayToIso(text);
  if (!iso) return FIELD_MESSAGES.dateInvalid;
  if (iso > limits.max) return limits.maxMessage;
  if (limits.min && iso < limits.min) return FIELD_MESSAGES.dateRangeInvalid;
  return undefined;
}

/** A date filter of the list, shown DD/MM/YYYY, applied as soon as a typed date is complete and allowed. */
function FilterDate(props: DateLimits & { label: string; iso: string; onApply: (iso: string) => void }) {
  const [text, setText] = useState(() => isoToDisplay(props.iso));
  useEffect(() => setText(isoToDisplay(props.iso)), [props.iso]);
  return (
    <DateField
      label={props.label}
      value={text}
      error={filterDateError(text, props)}
      min={props.min}
      max={props.max}
      onChange={(display) => {
        setText(display);
        const iso = displayToIso(display);
        if (iso && !filterDateError(display, props)) props.onApply(iso);
      }}
    />
  );
}

/** The case id of a nested location `/{id}` (the detail), or null on the list itself. */
function caseIdIn(location: string): number | null {
  const match = /^\/(\d{1,9})\/?$/.exec(location);
  return match ? Number(match[1]) : null;
}

/**
 * The list's period: `from`/`to` of the address when valid (the dashboard's bars pass theirs),
 * never later than today (spec §9); otherwise the start of this month to today.
 */
function rangeFromQuery(params: URLSearchParams): { from: string; to: string } {
  const fallback = monthToDateRange();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if (!isValidIsoDate(from) || !isValidIsoDate(to) || from > to || to > fallback.to) return fallback;
  return { from, to };
}

/** The body of POST /cases/search: filters, paging and sort (never a query string: see the route). */
function searchOf(filters: Filters, page: number, pageSize: number, picksCompany: boolean) {
  return {
    from: filters.from,
    to: filters.to,
    number: filters.number.trim() || undefined,
    categoryId: filters.categoryId || undefined,
    caseLineId: filters.caseLineId || undefined,
    statusId: filters.statusId || undefined,
    companyId: picksCompany ? filters.companyId || undefined : undefined,
    overdue: filters.overdue || undefined,
    page,
    pageSize,
    sort: '-createdAt',
  };
}

const searchCases = ([path, body]: readonly [string, ReturnType<typeof searchOf>]) =>
  api<Page<CaseListItem>>(path, { method: 'POST', body });

/**
 * Laporan: the server-side case list with filters, paging, export, detail and Buat Catatan. Partner
 * users pick one company of their partner; the administrator (type 1) one company of the group and
 * only reads (decision #37).
 */
export function CaseListPage({ user }: { user: User }) {
  const subject = subjectOf(user);
  const picksCompany =
    user.userTypeId === USER_TYPES.PARTNER ||
    user.userTypeId === USER_TYPES.PARTNER_STAFF ||
    user.userTypeId === USER_TYPES.ADMINISTRATOR;
  const whistleblower = user.userTypeId === 6;
  const search = useSearch();
  const initial = useMemo(() => {
    const params = new URLSearchParams(search);
    return {
      ...rangeFromQuery(params),
      number: '',
      categoryId: Number(params.get('category')) || 0,
      caseLineId: 0,
      statusId: Number(params.get('status')) || 0,
      companyId: picksCompany ? rememberedCompany(user.username) : 0,
      // The dashboard's overdue tile links here with ?overdue=1.
      overdue: params.get('overdue') === '1',
    } satisfies Filters;
  }, [search, picksCompany, user.username]);
  const [filters, setFilters] = useState<Filters>(initial);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  // The open case is part of the address (/admin/case/{id}: the internal id, never the complaint
  // number), so the browser's back button and a shared link work; this component stays mounted
  // under the nested route, so the filters and the page survive the round trip.
  const [location, navigate] = useLocation();
  const openId = caseIdIn(location);
  const listPath = (id?: number) =>
    `~/admin/case${id === undefined ? '' : `/${id}`}${search ? `?${search}` : ''}`;
  const [logFor, setLogFor] = useState<{ id: number; detail: CaseDetail | null } | null>(null);
  const today = toIsoDate(new Date());

  useEffect(() => setFilters(initial), [initial]);

  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  const companies = useSWR<Items<Option>>(picksCompany ? '/companies/options' : null);
  const categoryKey = picksCompany
    ? filters.companyId
      ? `/case-categories?companyId=${filters.companyId}`
      : null
    : '/case-categories';
  const categories = useSWR<Items<CaseCategory>>(categoryKey);
  const lines = useSWR<Items<Option>>(whistleblower ? null : '/case-lines');
  const statuses = useSWR<Items<CaseStatus>>('/case-statuses');

  const waitingForCompany = picksCompany && !filters.companyId;
  const listKey =
    waitingForCompany || openId !== null
      ? null
      : (['/cases/search', searchOf(filters, page, pageSize, picksCompany)] as const);
  const list = useSWR(listKey, searchCases, { keepPreviousData: true });
  const totalPages = Math.max(1, Math.ceil((list.data?.total ?? 0) / pageSize));
  const marks = useMessageMarks(
    list.data?.items.map((item) => item.id),
    picksCompany ? filters.companyId || null : null,
    can(subject, 'case-messages:marks') && openId === null,
  );

  const exportData = async () => {
    notify.info(UI_MESSAGES.exporting);
    try {
      const {
        page: _page,
        pageSize: _size,
        sort: _sort,
        ...body
      } = searchOf(filters, 1, pageSize, picksCompany);
      const { blob, fileName } = await download('/cases/export', { method: 'POST', body });
      const stamp = new Date().toLocaleString('sv-SE').replace(/:/g, '.');
      saveDownload(blob, fileName ?? `AllCases - ${stamp}.xlsx`);
    } catch (error) {
      notify.problem(error);
    }
  };

  // The audit trail of the list's period (types 1 and 2; the gateway scopes it to the caller).
  const exportAuditTrail = async () => {
    notify.info(UI_MESSAGES.exporting);
    try {
      const query = new URLSearchParams({ from: filters.from, to: filters.to });
      const { blob, fileName } = await download(`/audit-trail/export?${query}`);
      saveDownload(blob, fileName ?? `JejakAudit ${filters.from} sd ${filters.to}.csv`);
    } catch (error) {
      notify.problem(error);
    }
  };

  if (openId !== null) {
    return (
      <CaseDetailScreen
        id={openId}
        user={user}
        onBack={() => {
          navigate(listPath());
          void list.mutate();
        }}
      />
    );
  }

  const columns = whistleblower ? 6 : 8;
  return (
    <Stack gap="5">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="2xl">
          Laporan
        </Heading>
        <HStack gap="3" wrap="wrap">
          {can(subject, 'cases:export') && (
            <Button variant="outline" onClick={exportData} disabled={waitingForCompany}>
              Ekspor Data
            </Button>
          )}
          {can(subject, 'audit-trail:export') && (
            <Button variant="outline" onClick={exportAuditTrail}>
              Ekspor Jejak Audit
            </Button>
          )}
        </HStack>
      </Flex>

      {picksCompany && (
        <Box maxW="sm">
          <FormField label="Perusahaan">
            <SelectInput
              name="companyId"
              value={filters.companyId}
              options={companies.data?.items ?? []}
              loading={companies.isLoading}
              placeholder={UI_MESSAGES.choosePartnerCompany}
              onChange={(id) => {
                rememberCompany(user.username, id);
                set({ companyId: id, categoryId: 0 });
              }}
            />
          </FormField>
        </Box>
      )}

      <SimpleGrid
        as="fieldset"
        aria-label="Filter laporan"
        // Six filters in one row only where each keeps its whole value (a date reads DD/MM/YYYY in
        // full): at 1024 px, beside the side menu, three per row.
        columns={{ base: 1, sm: 2, lg: 3, '2xl': whistleblower ? 5 : 6 }}
        gap="3"
        bg="bg.panel"
        p="4"
        rounded="xl"
        borderWidth="1px"
      >
        <FilterDate
          label="Dari tanggal"
          iso={filters.from}
          max={filters.to}
          maxMessage={FIELD_MESSAGES.dateRangeInvalid}
          onApply={(from) => set({ from })}
        />
        <FilterDate
          label="Sampai tanggal"
          iso={filters.to}
          min={filters.from}
          max={today}
          maxMessage={FIELD_MESSAGES.dateAfterToday}
          onApply={(to) => set({ to })}
        />
        <FormField label="Nomor Laporan">
          <Input
            value={filters.number}
            placeholder="WBS-12345678"
            onChange={(e) => set({ number: e.target.value })}
          />
        </FormField>
        <FormField label="Kategori">
          <SelectInput
            value={filters.categoryId}
            options={(categories.data?.items ?? []).map((c) => ({
              id: c.id,
              name: c.name,
              group: c.groupName,
            }))}
            placeholder="Semua Kategori"
            onChange={(id) => set({ categoryId: id })}
          />
        </FormField>
        {!whistleblower && (
          <FormField label="Jalur Otorisasi">
            <SelectInput
              value={filters.caseLineId}
              options={lines.data?.items ?? []}
              placeholder="Semua Jalur"
              onChange={(id) => set({ caseLineId: id })}
            />
          </FormField>
        )}
        <FormField label="Status">
          <SelectInput
            value={filters.statusId}
            options={statuses.data?.items ?? []}
            placeholder="Semua Status"
            onChange={(id) => set({ statusId: id })}
          />
        </FormField>
        {!whistleblower && (
          <Checkbox.Root
            alignSelf="end"
            pb="2"
            checked={filters.overdue}
            onCheckedChange={(e) => set({ overdue: e.checked === true })}
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{CLOCK_TEXTS.overdueFilter}</Checkbox.Label>
          </Checkbox.Root>
        )}
      </SimpleGrid>

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
            {!waitingForCompany && list.error && !list.data && (
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
                    <MessageMark unread={marks.get(item.id)} />
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
                      <Button size="xs" variant="outline" onClick={() => navigate(listPath(item.id))}>
                        Lihat
                      </Button>
                      {can(subject, 'case-logs:create') && (
                        <Button
                          size="xs"
                          variant="outline"
                          onClick={() => setLogFor({ id: item.id, detail: null })}
                        >
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
              onChange={(e) => {
                setPageSize(Number(e.currentTarget.value));
                setPage(1);
              }}
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
        <Pager page={page} totalPages={totalPages} onPage={setPage} />
      </Flex>

      {logFor && (
        <CaseLogLoader
          id={logFor.id}
          user={user}
          onClose={(saved) => {
            setLogFor(null);
            if (saved) void list.mutate();
          }}
        />
      )}
    </Stack>
  );
}

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

function useCaseDetail(id: number) {
  const { data, error, isLoading, mutate } = useSWR<unknown>(`/cases/${id}`);
  const detail = useMemo(() => (data ? normaliseCaseDetail(data) : null), [data]);
  return { detail, error, isLoading, mutate };
}

function CaseLogLoader(props: { id: number; user: User; onClose: (saved: boolean) => void }) {
  const { detail, error } = useCaseDetail(props.id);
  useEffect(() => {
    if (error) props.onClose(false); // the failure itself is reported by the global SWR onError
  }, [error, props.onClose]);
  if (!detail) return null;
  return <CaseLogDialog detail={detail} user={props.user} onClose={props.onClose} />;
}

function CaseDetailScreen(props: { id: number; user: User; onBack: () => void }) {
  const { detail, error, isLoading, mutate } = useCaseDetail(props.id);
  const [logOpen, setLogOpen] = useState(false);
  const subject = subjectOf(props.user);
  const type6 = props.user.userTypeId === 6;
  useEffect(() => {
    if (error) props.onBack(); // the failure itself is reported by the global SWR onError
  }, [error, props.onBack]);
  if (isLoading || !detail) return <PageSpinner />;

  const downloadFile = async (path: string, name: string) => {
    try {
      const { blob, fileName } = await download(path);
      saveDownload(blob, fileName ?? name);
      notify.success(format(TEMPLATE_MESSAGES.downloadSucceeded, { name: fileName ?? name }));
    } catch (e) {
      notify.problem(e);
    }
  };

  return (
    <>
      <CaseDetailView
        detail={detail}
        masked={!can(subject, 'case-logs:read-full')}
        showReporterName={!type6}
        canRevealContact={can(subject, 'case-logs:create')}
        talk={
          !can(subject, 'case-messages:read')
            ? undefined
            : {
                access: { kind: 'case', caseId: detail.id },
                audience: type6 ? 'reporter' : 'staff',
                canWrite: can(subject, 'case-messages:write'),
                ...(can(subject, 'case-evidence:add') ? { onEvidenceAdded: () => void mutate() } : {}),
              }
        }
        onBack={props.onBack}
        actions={
          can(subject, 'case-logs:create') ? (
            <Button onClick={() => setLogOpen(true)}>Buat Catatan</Button>
          ) : undefined
        }
        onDownloadAttachment={
          can(subject, 'case-attachments:download')
            ? (a) => void downloadFile(`/cases/${detail.id}/attachments/${a.id}`, a.name)
            : undefined
        }
        onDownloadLogAttachment={
          !can(subject, 'case-logs:read-full')
            ? undefined
            : (log) =>
                void downloadFile(
                  `/cases/${detail.id}/logs/${log.id}/attachment`,
                  log.attachmentName ?? 'lampiran',
                )
        }
      />
      {logOpen && (
        <CaseLogDialog
          detail={detail}
          user={props.user}
          onClose={(saved) => {
            setLogOpen(false);
            if (saved) void mutate();
          }}
        />
      )}
    </>
  );
}
