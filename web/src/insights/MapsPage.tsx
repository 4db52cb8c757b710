/**
 * Peta Laporan (/admin/maps, docs/product/insights.md): the reports of the caller's scope per
 * province over the dashboard's period, as a map and, beside it, the same figures as a table. A
 * province from 5 reports opens its cities and regencies as a ranked chart and table; from there an
 * area opens the case list filtered by it. Areas of 1 to 4 reports show "<5" and open nothing.
 */
import {
  Box,
  Button,
  Center,
  Link as ChakraLink,
  Flex,
  Heading,
  HStack,
  SimpleGrid,
  Spinner,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';

import { UI_MESSAGES } from '@wbs/shared/messages';
import { lazy, type ReactNode, Suspense, useMemo, useRef } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { User } from '../api/types.ts';
import { useApi } from '../api/useApi.ts';
import { exportChartsWithNotice } from '../dashboard/exportPng.ts';
import { BAR_THICKNESS, countChart, type DateRange, periodText } from '../dashboard/model.ts';
import { RangeFilter } from '../dashboard/RangeFilter.tsx';
import { type MapCitiesReply, type MapProvincesReply, mapCities, mapProvinces } from './calls.ts';
import { InsightScopeField, useInsightScope } from './InsightScope.tsx';
import {
  areaColor,
  areaText,
  caseAreaHref,
  colorSteps,
  insightFileName,
  isOpenable,
  MAP_COLORS,
  mapViewHref,
  mapViewOf,
  stepLabels,
} from './model.ts';
import { INSIGHT_TEXTS as T } from './texts.ts';

const ProvinceMap = lazy(() => import('./ProvinceMap.tsx'));
const BarChart = lazy(() => import('../dashboard/BarChart.tsx'));

function Loading() {
  return (
    <Center py="10" role="status" aria-label={UI_MESSAGES.loading}>
      <Spinner size="lg" color="brand.solid" />
    </Center>
  );
}

function Failed({ onRetry }: { onRetry: () => void }) {
  return (
    <Stack align="center" py="8" gap="3">
      <Text color="fg.muted">{T.loadFailed}</Text>
      <Button size="sm" variant="outline" onClick={onRetry}>
        {T.retry}
      </Button>
    </Stack>
  );
}

function Panel(props: { children: ReactNode; label?: string; labelledBy?: string }) {
  return (
    <Box
      as="section"
      aria-label={props.label}
      aria-labelledby={props.labelledBy}
      bg="bg.panel"
      borderWidth="1px"
      rounded="xl"
      p={{ base: '3', md: '5' }}
      minW="0"
    >
      {props.children}
    </Box>
  );
}

/** A link to the case list of an area (or its name alone where it opens nothing). */
function AreaLink(props: { href: string | null; children: ReactNode }) {
  if (!props.href) return <>{props.children}</>;
  return (
    <Link href={`~${props.href}`}>
      <Text as="span" color="brand.fg" textDecoration="underline">
        {props.children}
      </Text>
    </Link>
  );
}

function Legend({ steps }: { steps: readonly number[] }) {
  const items = [
    { label: T.noneLegend, color: MAP_COLORS.none },
    { label: T.smallLegend, color: MAP_COLORS.small },
    ...stepLabels(steps),
  ];
  return (
    <HStack as="ul" aria-label={T.legend} wrap="wrap" gap="3" mt="2" listStyleType="none" ps="0">
      {items.map((item) => (
        <HStack as="li" key={item.label} gap="1.5" fontSize="sm">
          <Box
            w="3"
            h="3"
            rounded="sm"
            bg={item.color}
            borderWidth="1px"
            borderColor="gray.400"
            aria-hidden
          />
          <span>{item.label}</span>
        </HStack>
      ))}
    </HStack>
  );
}

function Credit() {
  return (
    <Text fontSize="xs" color="fg.muted" mt="3">
      {T.credit}{' '}
      <ChakraLink
        href="https://github.com/denyherianto/indonesia-geojson-topojson-maps-with-38-provinces"
        target="_blank"
        rel="noopener noreferrer"
        color="fg.muted"
        textDecoration="underline"
      >
        {T.creditSource}
      </ChakraLink>{' '}
      {T.creditAuthor}{' '}
      <ChakraLink
        href="https://creativecommons.org/licenses/by/4.0/deed.id"
        target="_blank"
        rel="noopener noreferrer"
        color="fg.muted"
        textDecoration="underline"
      >
        {T.creditLicense}
      </ChakraLink>{' '}
      {T.creditUnchanged}
    </Text>
  );
}

type Province = MapProvincesReply['provinces'][number];

/** Counted provinces first (most first), then the small ones, then those without reports, by name. */
function ranked(provinces: readonly Province[]): Province[] {
  const rank = (p: Province) => (p.suppressed ? 1 : (p.total ?? 0) > 0 ? 0 : 2);
  return [...provinces].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (b.total ?? 0) - (a.total ?? 0) ||
      a.provinceName.localeCompare(b.provinceName, 'id'),
  );
}

function ProvincesView(props: {
  reply: MapProvincesReply;
  range: DateRange;
  companyId: number;
  onSelect: (provinceId: number) => void;
  mapBox: React.RefObject<HTMLDivElement | null>;
}) {
  const { reply } = props;
  const steps = useMemo(
    () => colorSteps(Math.max(0, ...reply.provinces.map((p) => (p.suppressed ? 0 : (p.total ?? 0))))),
    [reply.provinces],
  );
  const rows = useMemo(() => ranked(reply.provinces), [reply.provinces]);
  return (
    <Stack gap="4">
      <Flex gap="4" wrap="wrap">
        <Text fontWeight="semibold" aria-live="polite">
          {T.total}: {reply.total}
        </Text>
        <Text>
          <AreaLink
            href={
              reply.unlocated > 0 ? caseAreaHref({ unlocated: true }, props.range, props.companyId) : null
            }
          >
            {T.unlocated}: {reply.unlocated}
          </AreaLink>
        </Text>
      </Flex>
      {reply.unread > 0 && (
        <Text role="note" fontSize="sm" bg="orange.subtle" color="orange.fg" px="3" py="2" rounded="md">
          {T.unread(reply.unread)}
        </Text>
      )}
      <SimpleGrid columns={{ base: 1, xl: 3 }} gap="4" alignItems="start">
        <Box gridColumn={{ xl: 'span 2' }} minW="0">
          <Panel label={T.mapsTitle}>
            <Box role="img" aria-label={T.mapLabel(reply.total)} ref={props.mapBox}>
              <Suspense fallback={<Loading />}>
                <ProvinceMap provinces={reply.provinces} steps={steps} onSelect={props.onSelect} />
              </Suspense>
            </Box>
            <Legend steps={steps} />
            <Text fontSize="xs" color="fg.muted" mt="2">
              {T.mapHint}
            </Text>
            <Credit />
          </Panel>
        </Box>
        <Panel label={T.tableCaption}>
          <Box maxH={{ xl: '34rem' }} overflowY="auto" tabIndex={0} role="group" aria-label={T.tableCaption}>
            <Table.Root size="sm" stickyHeader>
              <Table.Caption captionSide="top" textAlign="start" fontWeight="semibold" mb="2">
                {T.tableCaption}
              </Table.Caption>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{T.province}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{T.count}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((province) => (
                  <Table.Row key={province.provinceId}>
                    <Table.Cell as="th" scope="row" fontWeight="normal">
                      <HStack gap="2">
                        <Box
                          w="3"
                          h="3"
                          rounded="sm"
                          flexShrink="0"
                          bg={areaColor(province, steps)}
                          borderWidth="1px"
                          borderColor="gray.400"
                          aria-hidden
                        />
                        {isOpenable(province) ? (
                          <Button
                            size="sm"
                            variant="plain"
                            px="0"
                            h="auto"
                            fontWeight="normal"
                            onClick={() => props.onSelect(province.provinceId)}
                          >
                            <Text as="span" color="brand.fg" textDecoration="underline" textAlign="start">
                              {province.provinceName}
                            </Text>
                          </Button>
                        ) : (
                          <span>{province.provinceName}</span>
                        )}
                      </HStack>
                    </Table.Cell>
                    <Table.Cell textAlign="end">{areaText(province)}</Table.Cell>
                  </Table.Row>
                ))}
                <Table.Row>
                  <Table.Cell as="th" scope="row" fontWeight="normal">
                    <AreaLink
                      href={
                        reply.unlocated > 0
                          ? caseAreaHref({ unlocated: true }, props.range, props.companyId)
                          : null
                      }
                    >
                      {T.unlocated}
                    </AreaLink>
                  </Table.Cell>
                  <Table.Cell textAlign="end">{reply.unlocated}</Table.Cell>
                </Table.Row>
              </Table.Body>
            </Table.Root>
          </Box>
          <Text fontSize="xs" color="fg.muted" mt="2">
            {T.unlocatedHint}
          </Text>
        </Panel>
      </SimpleGrid>
    </Stack>
  );
}

type City = MapCitiesReply['cities'][number];

function CitiesView(props: {
  reply: MapCitiesReply;
  range: DateRange;
  companyId: number;
  chartBox: React.RefObject<HTMLDivElement | null>;
}) {
  const { reply, range, companyId } = props;
  const [, navigate] = useLocation();
  const counted = reply.cities.filter(isOpenable);
  const model = useMemo(
    () => countChart(counted.map((c: City) => ({ id: c.cityId, name: c.cityName, total: c.total ?? 0 }))),
    [counted],
  );
  const provinceHref = caseAreaHref({ provinceId: reply.provinceId }, range, companyId);
  return (
    <Stack gap="4">
      <Flex gap="4" wrap="wrap" align="baseline">
        <Text fontWeight="semibold">
          {T.total}: {reply.total}
        </Text>
        <AreaLink href={provinceHref}>{T.openProvinceCases(reply.provinceName)}</AreaLink>
      </Flex>
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4" alignItems="start">
        <Panel label={T.citiesTitle(reply.provinceName)}>
          {counted.length === 0 ? (
            <Center py="10" px="4" textAlign="center">
              <Text color="fg.muted">{T.citiesEmpty}</Text>
            </Center>
          ) : (
            <Box role="img" aria-label={T.citiesTitle(reply.provinceName)} ref={props.chartBox}>
              <Suspense fallback={<Loading />}>
                <BarChart
                  model={model}
                  thickness={BAR_THICKNESS.regular}
                  onBarClick={(row) =>
                    navigate(
                      `~${caseAreaHref({ provinceId: reply.provinceId, cityId: Number(row.key) }, range, companyId)}`,
                    )
                  }
                />
              </Suspense>
            </Box>
          )}
          <Credit />
        </Panel>
        <Panel label={T.citiesCaption(reply.provinceName)}>
          <Table.Root size="sm">
            <Table.Caption captionSide="top" textAlign="start" fontWeight="semibold" mb="2">
              {T.citiesCaption(reply.provinceName)}
            </Table.Caption>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{T.city}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{T.count}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {reply.cities.map((city) => (
                <Table.Row key={city.cityId}>
                  <Table.Cell as="th" scope="row" fontWeight="normal">
                    <AreaLink
                      href={
                        isOpenable(city)
                          ? caseAreaHref(
                              { provinceId: reply.provinceId, cityId: city.cityId },
                              range,
                              companyId,
                            )
                          : null
                      }
                    >
                      {city.cityName}
                    </AreaLink>
                  </Table.Cell>
                  <Table.Cell textAlign="end">{areaText(city)}</Table.Cell>
                </Table.Row>
              ))}
              <Table.Row>
                <Table.Cell as="th" scope="row" fontWeight="normal">
                  <AreaLink
                    href={
                      reply.unlocated > 0
                        ? caseAreaHref({ provinceId: reply.provinceId, unlocated: true }, range, companyId)
                        : null
                    }
                  >
                    {T.cityUnlocated}
                  </AreaLink>
                </Table.Cell>
                <Table.Cell textAlign="end">{reply.unlocated}</Table.Cell>
              </Table.Row>
            </Table.Body>
          </Table.Root>
        </Panel>
      </SimpleGrid>
    </Stack>
  );
}

export default function MapsPage({ user }: { user: User }) {
  const scope = useInsightScope(user);
  // The period and the province are the address's (model.ts mapViewOf): Back leaves a province for
  // the map, a reload keeps the view.
  const search = useSearch();
  const [, navigate] = useLocation();
  const { range, provinceId } = useMemo(() => mapViewOf(search), [search]);
  const mapBox = useRef<HTMLDivElement>(null);
  const chartBox = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const provinces = useApi(scope.ready ? mapProvinces(range, scope.companyId) : null);
  const cities = useApi(scope.ready && provinceId ? mapCities(provinceId, range, scope.companyId) : null);
  const scopeName = scope.name ?? provinces.data?.companies[0]?.companyName;
  const province = provinces.data?.provinces.find((p) => p.provinceId === provinceId);

  const select = (id: number) => {
    navigate(mapViewHref({ range, provinceId: id }));
    // The view changes under the user: the heading of the new view takes the focus.
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  const exportPng = async () => {
    const canvas = (provinceId ? chartBox : mapBox).current?.querySelector('canvas');
    const title = provinceId ? T.citiesTitle(province?.provinceName ?? '') : T.mapsTitle;
    await exportChartsWithNotice(
      canvas
        ? [
            {
              canvas,
              title,
              subtitle: [scopeName, periodText(range)].filter(Boolean).join(' · '),
              fileName: insightFileName(
                [T.mapsTitle, provinceId ? province?.provinceName : null, scopeName],
                range,
                'png',
              ),
            },
          ]
        : [],
    );
  };

  const viewTitle = provinceId && province ? T.citiesTitle(province.provinceName) : T.mapsTitle;

  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        {T.mapsTitle}
      </Heading>
      <InsightScopeField
        scope={{
          ...scope,
          choose: (id) => {
            scope.choose(id);
            if (provinceId) navigate(mapViewHref({ range, provinceId: 0 }));
          },
        }}
      />
      <RangeFilter
        applied={range}
        onApply={(next) => navigate(mapViewHref({ range: next, provinceId: 0 }))}
        actions={
          <Button type="button" variant="outline" onClick={() => void exportPng()}>
            {T.exportPng}
          </Button>
        }
      />
      <Stack gap="3">
        <Flex justify="space-between" align="center" gap="2" wrap="wrap">
          <Stack gap="0">
            <Heading as="h2" size="md" color="brand.fg" ref={headingRef} tabIndex={-1} outline="none">
              {viewTitle}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {[scopeName, periodText(range)].filter(Boolean).join(' · ')}
            </Text>
          </Stack>
          {provinceId > 0 && (
            <Button variant="outline" size="sm" onClick={() => select(0)}>
              {T.backToMap}
            </Button>
          )}
        </Flex>
        {provinceId ? (
          cities.data ? (
            <CitiesView reply={cities.data} range={range} companyId={scope.companyId} chartBox={chartBox} />
          ) : cities.error ? (
            <Failed onRetry={() => void cities.mutate()} />
          ) : (
            <Loading />
          )
        ) : provinces.data ? (
          <ProvincesView
            reply={provinces.data}
            range={range}
            companyId={scope.companyId}
            onSelect={select}
            mapBox={mapBox}
          />
        ) : provinces.error ? (
          <Failed onRetry={() => void provinces.mutate()} />
        ) : (
          <Loading />
        )}
      </Stack>
    </Stack>
  );
}
