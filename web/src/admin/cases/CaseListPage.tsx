/**
 * Laporan: the server-side case list with filters, paging, export, detail and Buat Catatan. Partner
 * users pick one company of their partner; the administrator (type 1) one company of the group and
 * only reads (docs/product/roles-and-screens.md#administrator). The sections are their own components: CaseFilters, CaseExports,
 * CaseTable and CaseDetailScreen; this page holds the state they share.
 */
import { Flex, Heading, Stack } from '@chakra-ui/react';
import { can, DEFAULT_PAGE_SIZE, USER_TYPES } from '@wbs/shared';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { isPartnerUser, subjectOf, type User } from '../../api/types.ts';
import { useApi } from '../../api/useApi.ts';
import { caseSearchQuery } from '../../case/search.ts';
import { CaseDetailScreen, CaseLogLoader } from './CaseDetailScreen.tsx';
import { CaseExports } from './CaseExports.tsx';
import { CaseFilters } from './CaseFilters.tsx';
import { CaseTable } from './CaseTable.tsx';
import { caseIdIn, type Filters, filtersFromQuery, searchOf } from './filters.ts';

export function CaseListPage({ user }: { user: User }) {
  const subject = subjectOf(user);
  const picksCompany = isPartnerUser(user) || user.userTypeId === USER_TYPES.ADMINISTRATOR;
  const whistleblower = user.userTypeId === USER_TYPES.WHISTLEBLOWER;
  const search = useSearch();
  const initial = useMemo(
    () => filtersFromQuery(search, picksCompany, user.username),
    [search, picksCompany, user.username],
  );
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
  // Buat Catatan opened from a row: the case id.
  const [logFor, setLogFor] = useState<number | null>(null);

  useEffect(() => setFilters(initial), [initial]);

  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };

  const waitingForCompany = picksCompany && !filters.companyId;
  const list = useApi(
    waitingForCompany || openId !== null
      ? null
      : caseSearchQuery(searchOf(filters, page, pageSize, picksCompany)),
    { keepPreviousData: true },
  );

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

  return (
    <Stack gap="5">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="2xl">
          Laporan
        </Heading>
        <CaseExports
          subject={subject}
          filters={filters}
          picksCompany={picksCompany}
          waitingForCompany={waitingForCompany}
        />
      </Flex>

      <CaseFilters
        filters={filters}
        onChange={set}
        picksCompany={picksCompany}
        whistleblower={whistleblower}
        username={user.username}
      />

      <CaseTable
        list={list}
        page={page}
        pageSize={pageSize}
        onPage={setPage}
        onPageSize={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        waitingForCompany={waitingForCompany}
        whistleblower={whistleblower}
        canLog={can(subject, 'case-logs:create')}
        onOpen={(id) => navigate(listPath(id))}
        onLog={setLogFor}
      />

      {logFor !== null && (
        <CaseLogLoader
          id={logFor}
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
