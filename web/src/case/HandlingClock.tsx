/**
 * The handling clocks the gateway computed (docs/product/handling.md#handling-clocks): a badge per state, the list's Tenggat cell, the
 * staff detail's two deadlines and the reporter's promise. Nothing here computes a deadline: the
 * browser only formats what the gateway sent (shared/src/handling-clock.ts holds the rules).
 */
import { Badge, HStack, Stack, Text } from '@chakra-ui/react';
import { format, isoToDisplay, UI_MESSAGES } from '@wbs/shared';
import type { CaseListItem } from '@wbs/shared/api/cases';
import type { Clock, ClockState } from '@wbs/shared/handling-clock';

type Handling = NonNullable<CaseListItem['handling']>;

export const CLOCK_TEXTS = {
  column: 'Tenggat',
  overdueFilter: 'Hanya yang melewati tenggat',
  acknowledgement: 'Tenggat tanda terima',
  feedback: 'Tenggat tanggapan',
  done: 'Selesai ditangani',
  unavailable: 'Tenggat tidak tersedia',
  states: {
    onTime: 'Sesuai jadwal',
    dueSoon: 'Segera jatuh tempo',
    overdue: 'Terlambat',
    met: 'Tepat waktu',
    late: 'Melewati tenggat',
  } satisfies Record<ClockState, string>,
} as const;

const PALETTE: Record<ClockState, string> = {
  onTime: 'blue',
  dueSoon: 'yellow',
  overdue: 'red',
  met: 'green',
  late: 'orange',
};

export function ClockBadge({ state }: { state: ClockState }) {
  return (
    <Badge colorPalette={PALETTE[state]} variant="subtle" size="sm" whiteSpace="normal">
      {CLOCK_TEXTS.states[state]}
    </Badge>
  );
}

/** The list's Tenggat cell: the running step's date and state, or "Selesai ditangani". */
export function DeadlineCell({ handling }: { handling: CaseListItem['handling'] }) {
  if (!handling) return <Text color="fg.muted">-</Text>;
  if (handling.stage === 'done') return <ClockBadge state={handling.feedback.state} />;
  const running = handling[handling.stage];
  return (
    <Stack gap="0.5" align="flex-start">
      <Text whiteSpace="nowrap">{isoToDisplay(running.dueDate)}</Text>
      <ClockBadge state={running.state} />
    </Stack>
  );
}

function ClockLine({ label, clock }: { label: string; clock: Clock }) {
  return (
    <HStack gap="2" wrap="wrap">
      <Text color="fg.muted">
        {label}: {isoToDisplay(clock.dueDate)}
      </Text>
      <ClockBadge state={clock.state} />
    </HStack>
  );
}

/** Staff detail: both deadlines with their states. */
export function HandlingDeadlines({ handling }: { handling: Handling | null }) {
  if (!handling) return <Text color="fg.muted">{CLOCK_TEXTS.unavailable}</Text>;
  return (
    <Stack gap="1" aria-label="Tenggat penanganan">
      <ClockLine label={CLOCK_TEXTS.acknowledgement} clock={handling.acknowledgement} />
      <ClockLine label={CLOCK_TEXTS.feedback} clock={handling.feedback} />
    </Stack>
  );
}

/** The reporter's promise as text (the view and the reporter's PDF copy): null when there is none. */
export function replyPromiseText(handling: Handling | null): string | null {
  if (!handling) return null;
  if (handling.stage === 'done') {
    const answered = handling.feedback.doneAt?.slice(0, 10);
    return answered ? format(UI_MESSAGES.replyGiven, { date: isoToDisplay(answered) }) : null;
  }
  return format(UI_MESSAGES.replyPromise, { date: isoToDisplay(handling[handling.stage].dueDate) });
}

/** The reporter's view: by when they will hear back, or when they were answered. */
export function ReplyPromise({ handling }: { handling: Handling | null }) {
  const text = replyPromiseText(handling);
  if (!text) return null;
  if (handling?.stage === 'done') return <Text color="fg.muted">{text}</Text>;
  return (
    <Text fontWeight="medium" color="brand.fg">
      {text}
    </Text>
  );
}
