/**
 * One chart panel: title, total, the lazily loaded canvas chart (or a loading, empty or error
 * state) and its textual alternative, a data table that screen readers always get and sighted
 * users can unfold (its links then take the keyboard to the same places as a bar click).
 */
import { Box, Button, Center, Flex, Heading, HStack, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared/messages';
import { lazy, type ReactNode, type Ref, Suspense, useId, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { BarRow, ChartModel } from './model.ts';
import { TEXTS } from './texts.ts';

const BarChart = lazy(() => import('./BarChart.tsx'));

export type ChartState = {
  model: ChartModel | undefined;
  error: unknown;
  isLoading: boolean;
  retry: () => void;
};

export type RowAction = { href: string } | { onSelect: () => void };

function Loading() {
  return (
    <Center py="10" role="status" aria-label={UI_MESSAGES.loading}>
      <Spinner size="lg" color="brand.solid" />
    </Center>
  );
}

export function ChartCard(props: {
  title: string;
  subtitle?: string;
  state: ChartState;
  emptyText: string;
  thickness: number;
  /** Header of the first table column: what a bar is (Kategori, Status, Perusahaan). */
  rowHeader: string;
  /** What a click on a bar (or its table row) does. */
  rowAction?: (row: BarRow, seriesKey: string) => RowAction;
  hint?: string;
  canvasRef?: Ref<HTMLCanvasElement>;
}) {
  const headingId = useId();
  const tableId = useId();
  const [tableShown, setTableShown] = useState(false);
  const [, navigate] = useLocation();
  const { model, error, isLoading } = props.state;
  const stacked = (model?.series.length ?? 0) > 1;
  const empty = model !== undefined && (model.rows.length === 0 || model.total === 0);

  const onBarClick = props.rowAction
    ? (row: BarRow, seriesKey: string) => {
        const action = props.rowAction?.(row, seriesKey);
        if (!action) return;
        if ('onSelect' in action) action.onSelect();
        else navigate(`~${action.href}`);
      }
    : undefined;

  let body: ReactNode;
  if (model === undefined && isLoading) body = <Loading />;
  else if (model === undefined && error) {
    body = (
      <Stack align="center" py="8" gap="3">
        <Text color="fg.muted">{TEXTS.loadFailed}</Text>
        <Button size="sm" variant="outline" onClick={props.state.retry}>
          {TEXTS.retry}
        </Button>
      </Stack>
    );
  } else if (model === undefined) body = <Loading />;
  else if (empty) {
    body = (
      <Center py="10" px="4" textAlign="center">
        <Text color="fg.muted">{props.emptyText}</Text>
      </Center>
    );
  } else {
    body = (
      <Box role="img" aria-label={TEXTS.chartLabel(props.title, model.total)}>
        <Suspense fallback={<Loading />}>
          <BarChart
            model={model}
            thickness={props.thickness}
            onBarClick={onBarClick}
            canvasRef={props.canvasRef}
          />
        </Suspense>
      </Box>
    );
  }

  return (
    <Box
      as="section"
      aria-labelledby={headingId}
      aria-busy={isLoading}
      bg="bg.panel"
      borderWidth="1px"
      rounded="xl"
      p={{ base: '3', md: '5' }}
      minW="0"
    >
      <Flex justify="space-between" align="baseline" gap="2" wrap="wrap" mb="3">
        <Stack gap="0">
          <Heading as="h2" size="md" id={headingId} color="brand.fg">
            {props.title}
          </Heading>
          {props.subtitle && (
            <Text fontSize="sm" color="fg.muted">
              {props.subtitle}
            </Text>
          )}
        </Stack>
        {model && (
          <Text fontWeight="semibold" aria-live="polite">
            {TEXTS.total}: {model.total}
          </Text>
        )}
      </Flex>

      {body}

      {model && !empty && stacked && (
        <HStack as="ul" aria-label={TEXTS.legend} wrap="wrap" gap="3" mt="2" listStyleType="none" ps="0">
          {model.series.map((series) => (
            <HStack as="li" key={series.key} gap="1.5" fontSize="sm">
              <Box w="3" h="3" rounded="sm" bg={series.color} flexShrink="0" aria-hidden />
              <span>{series.name}</span>
            </HStack>
          ))}
        </HStack>
      )}

      {model && !empty && (
        <>
          <Flex justify="space-between" align="center" gap="2" wrap="wrap" mt="2">
            <Text fontSize="xs" color="fg.muted">
              {props.hint}
            </Text>
            <Button
              size="xs"
              variant="ghost"
              aria-expanded={tableShown}
              aria-controls={tableId}
              onClick={() => setTableShown((shown) => !shown)}
            >
              {tableShown ? TEXTS.hideTable : TEXTS.showTable}
            </Button>
          </Flex>
          {/* Unfolded, the table may scroll sideways on a phone: the region then takes keyboard focus. */}
          <Box
            id={tableId}
            srOnly={!tableShown}
            mt="2"
            overflowX={tableShown ? 'auto' : undefined}
            tabIndex={tableShown ? 0 : undefined}
            role={tableShown ? 'group' : undefined}
            aria-label={tableShown ? props.title : undefined}
          >
            <DataTable
              caption={props.title}
              model={model}
              rowHeader={props.rowHeader}
              rowAction={props.rowAction}
              focusable={tableShown}
            />
          </Box>
        </>
      )}
    </Box>
  );
}

function DataTable(props: {
  caption: string;
  model: ChartModel;
  rowHeader: string;
  rowAction?: (row: BarRow, seriesKey: string) => RowAction;
  focusable: boolean;
}) {
  const stacked = props.model.series.length > 1;
  const tabIndex = props.focusable ? undefined : -1;
  return (
    <Table.Root size="sm">
      <Table.Caption srOnly>{props.caption}</Table.Caption>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>{props.rowHeader}</Table.ColumnHeader>
          {stacked &&
            props.model.series.map((series) => (
              <Table.ColumnHeader key={series.key} textAlign="end">
                {series.name}
              </Table.ColumnHeader>
            ))}
          <Table.ColumnHeader textAlign="end">{stacked ? TEXTS.total : TEXTS.count}</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {props.model.rows.map((row) => {
          const action = props.rowAction?.(row, '');
          return (
            <Table.Row key={row.key}>
              <Table.Cell as="th" scope="row" fontWeight="normal">
                {action && 'href' in action ? (
                  <Link href={`~${action.href}`} tabIndex={tabIndex}>
                    <Text as="span" color="brand.fg" textDecoration="underline">
                      {row.name}
                    </Text>
                  </Link>
                ) : action && 'onSelect' in action ? (
                  <Button size="xs" variant="plain" px="0" tabIndex={tabIndex} onClick={action.onSelect}>
                    <Text as="span" color="brand.fg" textDecoration="underline" textAlign="start">
                      {row.name}
                    </Text>
                  </Button>
                ) : (
                  row.name
                )}
              </Table.Cell>
              {stacked &&
                props.model.series.map((series) => (
                  <Table.Cell key={series.key} textAlign="end">
                    {row[series.key] ?? 0}
                  </Table.Cell>
                ))}
              <Table.Cell textAlign="end">{row.total}</Table.Cell>
            </Table.Row>
          );
        })}
      </Table.Body>
    </Table.Root>
  );
}
