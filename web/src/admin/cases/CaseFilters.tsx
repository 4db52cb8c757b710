/**
 * The case list's filters: the company (partner users and the administrator pick one), then period,
 * number, category, line, status and the overdue flag. Each change applies at once (the page goes
 * back to 1); a typed date applies once it is complete and allowed.
 */
import { Box, Button, Checkbox, HStack, Input, SimpleGrid, Text } from '@chakra-ui/react';
import {
  displayToIso,
  FIELD_MESSAGES,
  isoToDisplay,
  isSupportedIsoDate,
  SUPPORTED_DAYS,
  toIsoDate,
  UI_MESSAGES,
} from '@wbs/shared';
import { useEffect, useState } from 'react';
import { read } from '../../api/client.ts';
import { useApi } from '../../api/useApi.ts';
import { CLOCK_TEXTS } from '../../case/HandlingClock.tsx';
import { rememberCompany } from '../../dashboard/companyChoice.ts';
import { DateField } from '../../ui/DateField.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { SelectInput } from '../../ui/SelectInput.tsx';
import { type Filters, hasArea, NO_AREA } from './filters.ts';

type DateLimits = { min?: string | undefined; max: string; maxMessage: string };

/** Why a typed DD/MM/YYYY filter date cannot apply; nothing while it is still being typed. */
function filterDateError(text: string, limits: DateLimits): string | undefined {
  if (text.length < 10) return undefined;
  const iso = displayToIso(text);
  if (!iso) return FIELD_MESSAGES.dateInvalid;
  // The API's one date rule (docs/product/handling.md#dates), said here before the gateway has to.
  if (!isSupportedIsoDate(iso)) return FIELD_MESSAGES.dateOutOfRange;
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
      min={props.min ?? SUPPORTED_DAYS.min}
      max={props.max}
      onChange={(display) => {
        setText(display);
        const iso = displayToIso(display);
        if (iso && !filterDateError(display, props)) props.onApply(iso);
      }}
    />
  );
}

/**
 * The area filter a Peta Laporan link set: shown by name as an active filter the user can clear
 * (the list has no field of its own for it).
 */
function AreaFilter(props: { filters: Filters; onClear: () => void }) {
  const { provinceId, cityId, unlocated } = props.filters;
  const provinces = useApi(provinceId ? read('/api/v1/regions/provinces') : null);
  const cities = useApi(
    provinceId && cityId
      ? read('/api/v1/regions/provinces/{provinceId}/cities', {
          params: { path: { provinceId: String(provinceId) } },
        })
      : null,
  );
  const provinceName = provinces.data?.items.find((p) => p.id === provinceId)?.name ?? `#${provinceId}`;
  const cityName = cities.data?.items.find((c) => c.id === cityId)?.name ?? `#${cityId}`;
  const parts = [
    ...(provinceId ? [provinceName] : []),
    ...(cityId ? [cityName] : []),
    ...(unlocated ? [provinceId ? 'Tanpa kota/kabupaten' : 'Tanpa lokasi'] : []),
  ];
  return (
    <HStack
      role="status"
      gap="2"
      wrap="wrap"
      bg="brand.subtle"
      borderWidth="1px"
      borderColor="brand.muted"
      rounded="lg"
      px="3"
      py="2"
      alignSelf="flex-start"
    >
      <Text fontSize="sm">
        <Text as="span" fontWeight="semibold">
          Wilayah:
        </Text>{' '}
        {parts.join(' › ')}
      </Text>
      <Button size="xs" variant="outline" onClick={props.onClear}>
        Hapus filter wilayah
      </Button>
    </HStack>
  );
}

export function CaseFilters(props: {
  filters: Filters;
  onChange: (patch: Partial<Filters>) => void;
  /** Partner users and the administrator choose one company first. */
  picksCompany: boolean;
  /** A reporter's list has no line and no overdue filter. */
  whistleblower: boolean;
  username: string;
}) {
  const { filters, onChange: set, picksCompany, whistleblower } = props;
  const today = toIsoDate(new Date());
  const companies = useApi(picksCompany ? read('/api/v1/companies/options') : null);
  // A company picker's categories are those of the chosen company.
  const categories = useApi(
    picksCompany
      ? filters.companyId
        ? read('/api/v1/case-categories', { params: { query: { companyId: String(filters.companyId) } } })
        : null
      : read('/api/v1/case-categories'),
  );
  const lines = useApi(whistleblower ? null : read('/api/v1/case-lines'));
  const statuses = useApi(read('/api/v1/case-statuses'));

  return (
    <>
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
                rememberCompany(props.username, id);
                set({ companyId: id, categoryId: 0 });
              }}
            />
          </FormField>
        </Box>
      )}

      {hasArea(filters) && <AreaFilter filters={filters} onClear={() => set({ ...NO_AREA })} />}

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
    </>
  );
}
