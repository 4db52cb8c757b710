/**
 * Statistik (/admin/statistik, docs/product/insights.md): the figures audit committees ask for, over
 * the dashboard's period, for the caller's scope — a tab of the dashboard for types 2–5, a screen of
 * its own (from its menu) for the administrator. Computed by the gateway; this screen only shows and
 * exports them (XLSX and CSV from the gateway, each chart as PNG).
 */
import { Box, Button, Heading, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';

import { USER_TYPES } from '@wbs/shared/constants';
import { UI_MESSAGES } from '@wbs/shared/messages';
import { type ReactNode, useMemo, useState } from 'react';
import type { User } from '../api/types.ts';
import { useApi } from '../api/useApi.ts';
import { ChartCard, type ChartState } from '../dashboard/ChartCard.tsx';
import { DashboardTabs } from '../dashboard/DashboardTabs.tsx';
import { type ExportableChart, exportChartsWithNotice } from '../dashboard/exportPng.ts';
import {
  BAR_THICKNESS,
  type ChartModel,
  countChart,
  type DateRange,
  defaultRange,
  periodText,
} from '../dashboard/model.ts';
import { RangeFilter } from '../dashboard/RangeFilter.tsx';
import { useCanvasRegistry } from '../dashboard/useCanvasRegistry.ts';
import { saveFile } from '../ui/saveFile.ts';
import { notify } from '../ui/toaster.tsx';
import { type StatisticsReply, statistics, statisticsExport } from './calls.ts';
import { InsightScopeField, useInsightScope } from './InsightScope.tsx';
import { insightFileName, monthLabel } from './model.ts';
import { formatShare, INSIGHT_TEXTS as T } from './texts.ts';

type Figures = StatisticsReply['overall'];

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);
const days = (n: number | null) => (n === null ? T.none : T.days(n));

/** The reporters' share of anonymous reports, of those whose form was read. */
const anonymousShare = (f: Figures) =>
  share(f.anonymous.anonymous, f.anonymous.anonymous + f.anonymous.identified);

function Tile(props: { label: string; value: string; note?: string }) {
  return (
    <Box as="li" bg="bg.panel" borderWidth="1px" rounded="xl" p="4" listStyleType="none">
      <Text fontSize="sm" color="fg.muted">
        {props.label}
      </Text>
      <Text fontSize="2xl" fontWeight="bold" lineHeight="1.2">
        {props.value}
      </Text>
      {props.note && (
        <Text fontSize="xs" color="fg.muted">
          {props.note}
        </Text>
      )}
    </Box>
  );
}

function KeyFigures({ figures: f }: { figures: Figures }) {
  const known = f.anonymous.anonymous + f.anonymous.identified;
  return (
    <Box as="section" aria-label={T.keyFigures}>
      <SimpleGrid as="ul" columns={{ base: 1, sm: 2, lg: 3, '2xl': 4 }} gap="3" ps="0" m="0">
        <Tile label={T.filed} value={String(f.filed)} />
        <Tile label={T.closed} value={String(f.closed)} />
        <Tile
          label={T.ackMedian}
          value={days(f.acknowledge.medianDays)}
          note={T.measured(f.acknowledge.measured)}
        />
        <Tile
          label={T.ackP90}
          value={days(f.acknowledge.p90Days)}
          note={T.measured(f.acknowledge.measured)}
        />
        <Tile label={T.answerMedian} value={days(f.answer.medianDays)} note={T.measured(f.answer.measured)} />
        <Tile label={T.answerP90} value={days(f.answer.p90Days)} note={T.measured(f.answer.measured)} />
        <Tile
          label={T.ackWithin}
          value={formatShare(f.acknowledge.withinDeadline)}
          note={T.measured(f.acknowledge.measured)}
        />
        <Tile
          label={T.answerWithin}
          value={formatShare(f.answer.withinDeadline)}
          note={T.measured(f.answer.measured)}
        />
        <Tile
          label={T.anonymousShare}
          value={formatShare(anonymousShare(f))}
          note={T.anonymousOf(f.anonymous.anonymous, known, f.anonymous.unknown)}
        />
        <Tile
          label={T.returnedShare}
          value={formatShare(share(f.returned, f.filed))}
          note={`${T.ofFiled(f.filed)}. ${T.returnedHint}`}
        />
      </SimpleGrid>
    </Box>
  );
}

function CompaniesTable({ reply }: { reply: StatisticsReply }) {
  const headers = [
    T.filed,
    T.closed,
    T.ackMedian,
    T.answerMedian,
    T.ackWithin,
    T.answerWithin,
    T.anonymousShare,
    T.returnedShare,
  ];
  return (
    <Box
      as="section"
      aria-labelledby="statistik-perusahaan"
      bg="bg.panel"
      borderWidth="1px"
      rounded="xl"
      p={{ base: '3', md: '5' }}
    >
      <Heading as="h2" size="md" id="statistik-perusahaan" color="brand.fg" mb="3">
        {T.companiesTitle}
      </Heading>
      <Box overflowX="auto" tabIndex={0} role="group" aria-label={T.companiesCaption}>
        <Table.Root size="sm">
          <Table.Caption srOnly>{T.companiesCaption}</Table.Caption>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{T.company}</Table.ColumnHeader>
              {headers.map((header) => (
                <Table.ColumnHeader key={header} textAlign="end">
                  {header}
                </Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {reply.companies.map(({ companyId, companyName, figures: f }) => (
              <Table.Row key={companyId}>
                <Table.Cell as="th" scope="row" fontWeight="normal">
                  {companyName}
                </Table.Cell>
                {[
                  String(f.filed),
                  String(f.closed),
                  days(f.acknowledge.medianDays),
                  days(f.answer.medianDays),
                  formatShare(f.acknowledge.withinDeadline),
                  formatShare(f.answer.withinDeadline),
                  formatShare(anonymousShare(f)),
                  formatShare(share(f.returned, f.filed)),
                ].map((value, index) => (
                  <Table.Cell key={headers[index]} textAlign="end">
                    {value}
                  </Table.Cell>
                ))}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
    </Box>
  );
}

type Chart = { name: string; title: string; rowHeader: string; model: ChartModel | undefined };

function charts(reply: StatisticsReply | undefined): Chart[] {
  const months = (key: 'filed' | 'closed') =>
    reply
      ? countChart(reply.months.map((m, i) => ({ id: i + 1, name: monthLabel(m.month), total: m[key] })))
      : undefined;
  return [
    { name: 'filed', title: T.filedPerMonth, rowHeader: T.month, model: months('filed') },
    { name: 'closed', title: T.closedPerMonth, rowHeader: T.month, model: months('closed') },
    {
      name: 'channels',
      title: T.perChannel,
      rowHeader: T.channel,
      model: reply ? countChart(reply.channels) : undefined,
    },
    {
      name: 'outcomes',
      title: T.perOutcome,
      rowHeader: T.outcome,
      model: reply ? countChart(reply.outcomes) : undefined,
    },
  ];
}

export default function StatisticsPage({ user }: { user: User }) {
  const administrator = user.userTypeId === USER_TYPES.ADMINISTRATOR;
  const scope = useInsightScope(user);
  const [range, setRange] = useState<DateRange>(() => defaultRange());
  const registry = useCanvasRegistry();
  const source = useApi(scope.ready ? statistics(range, scope.companyId) : null);
  const reply = source.data;
  const scopeName = scope.name ?? reply?.companies[0]?.companyName;
  const period = periodText(range);
  const list = useMemo(() => charts(reply), [reply]);
  const state = (model: ChartModel | undefined): ChartState => ({
    model,
    error: source.error,
    isLoading: source.isLoading || (scope.ready && !reply && !source.error),
    retry: () => void source.mutate(),
  });

  const exportFile = async (format: 'xlsx' | 'csv') => {
    notify.info(UI_MESSAGES.exporting);
    try {
      const { blob, fileName } = await statisticsExport(range, scope.companyId, format);
      saveFile(blob, fileName ?? insightFileName([T.statisticsTitle, scopeName], range, format));
    } catch (error) {
      notify.problem(error);
    }
  };

  const exportPng = async () => {
    const ready: ExportableChart[] = [];
    for (const chart of list) {
      const canvas = registry.canvasOf(chart.name);
      if (!canvas) continue;
      ready.push({
        canvas,
        title: chart.title,
        subtitle: [scopeName, period].filter(Boolean).join(' · '),
        fileName: insightFileName([T.statisticsTitle, chart.title, scopeName], range, 'png'),
      });
    }
    await exportChartsWithNotice(ready);
  };

  let body: ReactNode = null;
  if (reply) {
    body = (
      <>
        <KeyFigures figures={reply.overall} />
        {(scope.picks || reply.companies.length > 1) && reply.companies.length > 0 && (
          <CompaniesTable reply={reply} />
        )}
      </>
    );
  }

  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        {administrator ? T.statisticsTitle : T.dashboardTitle}
      </Heading>
      {!administrator && <DashboardTabs current="/admin/statistik" />}
      <InsightScopeField scope={scope} />
      <RangeFilter
        applied={range}
        onApply={setRange}
        actions={
          <>
            <Button type="button" variant="outline" onClick={() => void exportFile('xlsx')}>
              {T.exportXlsx}
            </Button>
            <Button type="button" variant="outline" onClick={() => void exportFile('csv')}>
              {T.exportCsv}
            </Button>
            <Button type="button" variant="outline" onClick={() => void exportPng()}>
              {T.exportPng}
            </Button>
          </>
        }
      />
      {reply && (
        <Text fontSize="sm" color="fg.muted" aria-live="polite">
          {[scopeName, period].filter(Boolean).join(' · ')}
        </Text>
      )}
      {body}
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4" alignItems="start">
        {list.map((chart) => (
          <ChartCard
            key={chart.name}
            title={chart.title}
            subtitle={period}
            state={state(chart.model)}
            emptyText={T.statisticsEmpty}
            thickness={BAR_THICKNESS.regular}
            rowHeader={chart.rowHeader}
            canvasRef={registry.refFor(chart.name)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
