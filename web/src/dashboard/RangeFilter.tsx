/**
 * The Laporan tab's period filter (spec §2, §9): two DD/MM/YYYY fields, Terapkan applies them, Batal
 * returns to the period in force.
 */
import { Box, Button, Flex, HStack, SimpleGrid } from '@chakra-ui/react';
import { SUPPORTED_DAYS } from '@wbs/shared/dates';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { DateField } from '../ui/DateField.tsx';
import { checkRange, type DateRange, draftOf, type RangeDraft } from './model.ts';
import { TEXTS } from './texts.ts';

export function RangeFilter(props: {
  applied: DateRange;
  onApply: (range: DateRange) => void;
  actions?: ReactNode;
}) {
  const [draft, setDraft] = useState<RangeDraft>(() => draftOf(props.applied));
  const [errors, setErrors] = useState<Partial<RangeDraft>>({});
  useEffect(() => setDraft(draftOf(props.applied)), [props.applied]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const check = checkRange(draft);
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors({});
    props.onApply(check.range);
  };
  const cancel = () => {
    setDraft(draftOf(props.applied));
    setErrors({});
  };

  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '3', md: '4' }}>
      <form onSubmit={apply} noValidate aria-label={TEXTS.filterLegend}>
        <Flex gap="3" align="flex-end" wrap="wrap">
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3" flex="1 1 24rem">
            <DateField
              label={TEXTS.from}
              value={draft.from}
              error={errors.from}
              min={SUPPORTED_DAYS.min}
              max={SUPPORTED_DAYS.max}
              onChange={(from) => setDraft((d) => ({ ...d, from }))}
            />
            <DateField
              label={TEXTS.to}
              value={draft.to}
              error={errors.to}
              min={SUPPORTED_DAYS.min}
              max={SUPPORTED_DAYS.max}
              onChange={(to) => setDraft((d) => ({ ...d, to }))}
            />
          </SimpleGrid>
          <HStack gap="2" wrap="wrap">
            <Button type="submit">{TEXTS.apply}</Button>
            <Button type="button" variant="outline" onClick={cancel}>
              {TEXTS.cancel}
            </Button>
            {props.actions}
          </HStack>
        </Flex>
      </form>
    </Box>
  );
}
