/**
 * /admin/dashboard (spec section 2 "Dashboard screen"), for user types 2–5. Two tabs: Dashboard
 * (open reports per category, stacked by status) and Laporan (a period filter, Ekspor, and the
 * per-company / per-status / per-category counts). Partner users (3, 5) choose one company of
 * their partner, remembered per user name; company users (2, 4) see their own company.
 */
import { Box, Button, Center, Heading, SimpleGrid, Stack, Tabs, Text } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared/messages';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type Query, read } from '../api/client.ts';
import { isPartnerUser, type User } from '../api/types.ts';
import { useApi } from '../api/useApi.ts';
import { FormField } from '../ui/FormField.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { SelectInput } from '../ui/SelectInput.tsx';
import { ChartCard, type ChartState } from './ChartCard.tsx';
import { rememberCompany, rememberedCompany } from './companyChoice.ts';
import { DashboardTabs } from './DashboardTabs.tsx';
import { type ExportableChart, exportChartsWithNotice } from './exportPng.ts';
import {
  BAR_THICKNESS,
  type ChartModel,
  caseListHref,
  chartFileName,
  countChart,
  type DateRange,
  dashboardQuery,
  defaultRange,
  openCasesChart,
  periodText,
} from './model.ts';
import { OverdueTile } from './OverdueTile.tsx';
import { RangeFilter } from './RangeFilter.tsx';
import { TEXTS } from './texts.ts';
import { useCanvasRegistry } from './useCanvasRegistry.ts';

/** A chart's data through SWR (failures are announced once by the global SWR onError snackbar). */
function useChartData<T>(query: Query<T> | null) {
  const { data, error, isLoading, mutate } = useApi(query);
  const retry = useCallback(() => void mutate(), [mutate]);
  return { data, error, isLoading: isLoading || (query !== null && data === undefined && !error), retry };
}

const stateOf = (
  source: { error: unknown; isLoading: boolean; retry: () => void },
  model: ChartModel | undefined,
): ChartState => ({ model, error: source.error, isLoading: source.isLoading, retry: source.retry });

function ChooseCompany() {
  return (
    <Center bg="bg.panel" borderWidth="1px" rounded="xl" py="10" px="4" textAlign="center">
      <Text color="fg.muted">{UI_MESSAGES.choosePartnerCompany}</Text>
    </Center>
  );
}

function TotalBox(props: { total: number | undefined; companyName?: string; loading: boolean }) {
  return (
    <Box
      as="section"
      aria-label={TEXTS.totalBox}
      aria-busy={props.loading}
      bg="brand.solid"
      color="brand.contrast"
      rounded="xl"
      p={{ base: '4', md: '5' }}
    >
      <Text fontSize="sm" fontWeight="semibold">
        {TEXTS.totalBox}
        {props.companyName ? ` — ${props.companyName}` : ''}
      </Text>
      <Text fontSize="4xl" fontWeight="bold" lineHeight="1.1" aria-live="polite">
        {props.total ?? '–'}
      </Text>
    </Box>
  );
}

/** Dashboard tab: the unfinished reports of the company now, per category and status. */
function OpenCasesPanel(props: { companyId: number; partnerView: boolean }) {
  const source = useChartData(
    props.partnerView && !props.companyId
      ? null
      : read('/api/v1/dashboard/open-cases', {
          params: { query: dashboardQuery({ companyId: props.partnerView ? props.companyId : undefined }) },
        }),
  );
  const model = useMemo(() => (source.data ? openCasesChart(source.data) : undefined), [source.data]);
  if (props.partnerView && !props.companyId) return <ChooseCompany />;
  return (
    <ChartCard
      title={TEXTS.openCasesTitle}
      subtitle={TEXTS.openCasesScope}
      state={stateOf(source, model)}
      emptyText={TEXTS.openCasesEmpty}
      thickness={BAR_THICKNESS.regular}
      rowHeader={TEXTS.category}
    />
  );
}

/** Laporan tab: period filter, Ekspor, and the counts of the period. */
function ReportsPanel(props: {
  partnerView: boolean;
  companyId: number;
  companyName: string | undefined;
  onChooseCompany: (id: number) => void;
}) {
  const { partnerView, companyId } = props;
  const [range, setRange] = useState<DateRange>(() => defaultRange());
  const registry = useCanvasRegistry();
  const waiting = partnerView && !companyId;

  const companies = useChartData(
    partnerView
      ? read('/api/v1/dashboard/companies', { params: { query: dashboardQuery({ range }) } })
      : null,
  );
  const summary = useChartData(
    waiting
      ? null
      : read('/api/v1/dashboard/summary', {
          params: { query: dashboardQuery({ range, companyId: partnerView ? companyId : undefined }) },
        }),
  );
  const companiesModel = useMemo(
    () => (companies.data ? countChart(companies.data.items) : undefined),
    [companies.data],
  );
  const statusModel = useMemo(
    () => (summary.data ? countChart(summary.data.byStatus) : undefined),
    [summary.data],
  );
  const categoryModel = useMemo(
    () => (summary.data ? countChart(summary.data.byCategory) : undefined),
    [summary.data],
  );
  const companyName = summary.data?.companyName ?? props.companyName;
  const period = periodText(range);

  const statusChart = {
    name: 'status',
    title: TEXTS.perStatusTitle,
    rowHeader: TEXTS.status,
    model: statusModel,
  } as const;
  const categoryChart = {
    name: 'category',
    title: TEXTS.perCategoryTitle,
    rowHeader: TEXTS.category,
    model: categoryModel,
  } as const;
  // The partner view leads with the statuses, the company view with the categories (spec §2).
  const summaryCharts = partnerView ? [statusChart, categoryChart] : [categoryChart, statusChart];
  const charts = [
    ...(partnerView ? [{ name: 'companies', title: TEXTS.perCompanyTitle, companyName: null }] : []),
    ...(waiting ? [] : summaryCharts.map((chart) => ({ name: chart.name, title: chart.title, companyName }))),
  ];

  const exportAll = async () => {
    const ready: ExportableChart[] = [];
    for (const chart of charts) {
      const canvas = registry.canvasOf(chart.name);
      if (!canvas) continue;
      ready.push({
        canvas,
        title: chart.title,
        subtitle: [chart.companyName, period].filter(Boolean).join(' · '),
        fileName: chartFileName({ partnerView, chart: chart.title, companyName: chart.companyName, range }),
      });
    }
    await exportChartsWithNotice(ready);
  };

  const toCaseList = (filter: 'category' | 'status') => (row: { key: string }) => ({
    href: caseListHref(filter, row.key, range),
  });

  return (
    <Stack gap="4">
      <RangeFilter
        applied={range}
        onApply={setRange}
        actions={
          <Button type="button" variant="outline" onClick={() => void exportAll()}>
            {TEXTS.export}
          </Button>
        }
      />
      {partnerView && (
        <ChartCard
          title={TEXTS.perCompanyTitle}
          subtitle={period}
          state={stateOf(companies, companiesModel)}
          emptyText={TEXTS.rangeEmpty}
          thickness={BAR_THICKNESS.wide}
          rowHeader={TEXTS.company}
          rowAction={(row) => ({ onSelect: () => props.onChooseCompany(Number(row.key)) })}
          hint={TEXTS.companyHint}
          canvasRef={registry.refFor('companies')}
        />
      )}
      {waiting ? (
        <ChooseCompany />
      ) : (
        <>
          <TotalBox
            total={summary.data?.total}
            companyName={partnerView ? companyName : undefined}
            loading={summary.isLoading}
          />
          <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4" alignItems="start">
            {summaryCharts.map((chart) => (
              <ChartCard
                key={chart.name}
                title={chart.title}
                subtitle={period}
                state={stateOf(summary, chart.model)}
                emptyText={TEXTS.rangeEmpty}
                thickness={BAR_THICKNESS.regular}
                rowHeader={chart.rowHeader}
                rowAction={toCaseList(chart.name)}
                hint={TEXTS.drillHint}
                canvasRef={registry.refFor(chart.name)}
              />
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

export function DashboardPage({ user }: { user: User }) {
  const partnerView = isPartnerUser(user);
  const [companyId, setCompanyId] = useState(() => (partnerView ? rememberedCompany(user.username) : 0));
  const [tab, setTab] = useState('dashboard');
  const options = useApi(partnerView ? read('/api/v1/companies/options') : null);
  // Only a company the partner holds now is asked for: a stale remembered one would answer 404.
  const held = options.data?.items.find((c) => c.id === companyId);
  const chosenId = held?.id ?? 0;
  const optionsPending = partnerView && !options.data && !options.error;

  const choose = useCallback(
    (id: number) => {
      rememberCompany(user.username, id);
      setCompanyId(id);
    },
    [user.username],
  );

  // A remembered company the partner no longer holds is forgotten rather than asked for (404).
  useEffect(() => {
    if (!options.data || !companyId) return;
    if (!options.data.items.some((c) => c.id === companyId)) choose(0);
  }, [options.data, companyId, choose]);

  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        {TEXTS.title}
      </Heading>
      <DashboardTabs current="/admin/dashboard" />

      {partnerView && (
        <Box maxW={{ base: 'full', sm: 'sm' }}>
          <FormField label={TEXTS.chooseCompany}>
            <SelectInput
              name="companyId"
              value={companyId}
              options={options.data?.items ?? []}
              loading={options.isLoading}
              placeholder={UI_MESSAGES.choosePartnerCompany}
              onChange={choose}
            />
          </FormField>
        </Box>
      )}

      {optionsPending ? (
        <PageSpinner />
      ) : (
        <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value)} variant="line" lazyMount>
          <Tabs.List>
            <Tabs.Trigger value="dashboard">{TEXTS.tabDashboard}</Tabs.Trigger>
            <Tabs.Trigger value="reports">{TEXTS.tabReports}</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="dashboard">
            <Stack gap="5">
              <OverdueTile username={user.username} partnerView={partnerView} />
              <OpenCasesPanel companyId={chosenId} partnerView={partnerView} />
            </Stack>
          </Tabs.Content>
          <Tabs.Content value="reports">
            <ReportsPanel
              partnerView={partnerView}
              companyId={chosenId}
              companyName={held?.name}
              onChooseCompany={choose}
            />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </Stack>
  );
}
