/**
 * The Laporan tab's period filter (spec §2, §9): two DD/MM/YYYY fields, Terapkan applies them, Batal
 * returns to the period in force. A calendar button opens the browser's own date picker, whose
 * choice is written back as DD/MM/YYYY whatever the browser's locale.
 */
import { Box, Button, Flex, HStack, IconButton, Input, SimpleGrid } from '@chakra-ui/react';
import { displayToIso, isoToDisplay } from '@wbs/shared/dates';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { FormField } from '../ui/FormField.tsx';
import { checkRange, type DateRange, draftOf, maskDateInput, type RangeDraft } from './model.ts';
import { TEXTS } from './texts.ts';

function CalendarIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor">
      <rect x="3" y="5" width="18" height="16" rx="2" strokeWidth="2" />
      <path d="M3 10h18M8 3v4M16 3v4" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function DateField(props: {
  label: string;
  value: string;
  error?: string;
  onChange: (display: string) => void;
}) {
  const picker = useRef<HTMLInputElement>(null);
  const openPicker = () => {
    const input = picker.current;
    if (!input) return;
    try {
      input.showPicker();
    } catch {
      // showPicker is refused without a user gesture or unsupported: typing stays possible
    }
  };
  return (
    <FormField label={props.label} error={props.error}>
      <HStack gap="1" w="full" position="relative">
        <Input
          value={props.value}
          placeholder={TEXTS.datePlaceholder}
          inputMode="numeric"
          autoComplete="off"
          maxLength={10}
          onChange={(event) => props.onChange(maskDateInput(event.currentTarget.value))}
        />
        <IconButton variant="outline" aria-label={`${TEXTS.pickDate}: ${props.label}`} onClick={openPicker}>
          <CalendarIcon />
        </IconButton>
        <input
          ref={picker}
          type="date"
          tabIndex={-1}
          aria-hidden="true"
          value={displayToIso(props.value) ?? ''}
          onChange={(event) => {
            if (event.currentTarget.value) props.onChange(isoToDisplay(event.currentTarget.value));
          }}
          style={{
            position: 'absolute',
            right: 0,
            bottom: 0,
            width: 1,
            height: 1,
            opacity: 0,
            pointerEvents: 'none',
          }}
        />
      </HStack>
    </FormField>
  );
}

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
              onChange={(from) => setDraft((d) => ({ ...d, from }))}
            />
            <DateField
              label={TEXTS.to}
              value={draft.to}
              error={errors.to}
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
