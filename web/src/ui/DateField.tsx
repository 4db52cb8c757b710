/**
 * A date typed as DD/MM/YYYY (spec §9's display format, whatever the browser's locale: a native
 * `<input type="date">` shows MM/DD/YYYY in an English browser). A calendar button opens the
 * browser's own date picker, whose choice is written back as DD/MM/YYYY.
 */
import { HStack, IconButton, Input } from '@chakra-ui/react';
import { displayToIso, isoToDisplay } from '@wbs/shared/dates';
import { useRef } from 'react';
import { FormField } from './FormField.tsx';

/** Keeps digits only and places the slashes: '0105' → '01/05', '01052026' → '01/05/2026'. */
export function maskDateInput(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 8);
  if (digits.length <= 2) return digits;
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`;
}

function CalendarIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor">
      <rect x="3" y="5" width="18" height="16" rx="2" strokeWidth="2" />
      <path d="M3 10h18M8 3v4M16 3v4" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export function DateField(props: {
  label: string;
  /** DD/MM/YYYY, possibly incomplete while typed. */
  value: string;
  error?: string | undefined;
  /** Bounds of the calendar (YYYY-MM-DD). */
  min?: string | undefined;
  max?: string | undefined;
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
          placeholder="DD/MM/YYYY"
          inputMode="numeric"
          autoComplete="off"
          maxLength={10}
          onChange={(event) => props.onChange(maskDateInput(event.currentTarget.value))}
        />
        <IconButton
          variant="outline"
          aria-label={`Pilih tanggal dari kalender: ${props.label}`}
          onClick={openPicker}
        >
          <CalendarIcon />
        </IconButton>
        <input
          ref={picker}
          type="date"
          tabIndex={-1}
          aria-hidden="true"
          value={displayToIso(props.value) ?? ''}
          min={props.min}
          max={props.max}
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
