/**
 * Retensi Data: each company's retention period in months. The administrator, who is also the data
 * protection officer, gives a company its own period or returns it to the group default, as on
 * Tenggat Penanganan. The gateway's next scan applies it.
 */
import { Box, Button, Flex, Heading, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared';
import { RETENTION_MONTHS_RANGE } from '@wbs/shared/retention';
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/useApi.ts';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { notify } from '../../ui/toaster.tsx';
import { useFormErrors } from '../../ui/useFormErrors.ts';
import { type RetentionRow, resetRetentionPeriod, retentionPeriods, setRetentionPeriod } from './calls.ts';
import { RETENTION_TEXTS as T } from './texts.ts';

function EditRow(props: { row: RetentionRow; onDone: (saved: boolean) => void }) {
  const [months, setMonths] = useState(String(props.row.months));
  const [busy, setBusy] = useState(false);
  const { errors, showServer, clearField } = useFormErrors();
  const input = useRef<HTMLInputElement>(null);
  // The field the Ubah button opened takes the focus, so a keyboard user types at once.
  useEffect(() => input.current?.focus(), []);
  const save = async () => {
    setBusy(true);
    try {
      const reply = await setRetentionPeriod(props.row.companyId, Number(months));
      notify.success(reply.message);
      props.onDone(true);
    } catch (error) {
      if (!showServer(error)) notify.problem(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Table.Row>
      <Table.Cell>{props.row.companyName}</Table.Cell>
      <Table.Cell>
        <Stack gap="1">
          <Input
            size="sm"
            w="24"
            type="number"
            inputMode="numeric"
            min={RETENTION_MONTHS_RANGE.min}
            max={RETENTION_MONTHS_RANGE.max}
            aria-label={`${T.months} ${props.row.companyName}`}
            aria-invalid={errors.months ? true : undefined}
            ref={input}
            value={months}
            onChange={(e) => {
              setMonths(e.target.value);
              clearField('months');
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') void save();
            }}
          />
          {errors.months && (
            <Text fontSize="xs" color="fg.error">
              {errors.months}
            </Text>
          )}
        </Stack>
      </Table.Cell>
      <Table.Cell />
      <Table.Cell>
        <HStack gap="1">
          <Button size="xs" onClick={save} loading={busy}>
            {T.save}
          </Button>
          <Button size="xs" variant="outline" onClick={() => props.onDone(false)} disabled={busy}>
            {T.cancel}
          </Button>
        </HStack>
      </Table.Cell>
    </Table.Row>
  );
}

export default function RetentionPeriodsPage() {
  const { data, error, isLoading, mutate } = useApi(retentionPeriods());
  const [editing, setEditing] = useState<number | null>(null);
  // Back on the row's Ubah button after Simpan or Batal: the focus stays where the user was.
  const returnFocus = useRef<number | null>(null);
  const reset = async (row: RetentionRow) => {
    try {
      const reply = await resetRetentionPeriod(row.companyId);
      notify.success(reply.message);
      await mutate();
    } catch (e) {
      notify.problem(e);
    }
  };
  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        {T.title}
      </Heading>
      <Text color="fg.muted" maxW="3xl">
        {T.intro}
        {data && ` ${T.groupDefault}: ${data.defaultMonths} bulan.`}
      </Text>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto" maxW="3xl">
        {isLoading ? (
          <PageSpinner />
        ) : (
          <Table.Root size="sm" aria-label={T.title}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{T.company}</Table.ColumnHeader>
                <Table.ColumnHeader>{T.months}</Table.ColumnHeader>
                <Table.ColumnHeader>{T.source}</Table.ColumnHeader>
                <Table.ColumnHeader>{T.actions}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {(error || data?.companies.length === 0) && (
                <Table.Row>
                  <Table.Cell colSpan={4} textAlign="center" color="fg.muted">
                    {UI_MESSAGES.notFoundData}
                  </Table.Cell>
                </Table.Row>
              )}
              {data?.companies.map((row) =>
                editing === row.companyId ? (
                  <EditRow
                    key={row.companyId}
                    row={row}
                    onDone={(saved) => {
                      returnFocus.current = row.companyId;
                      setEditing(null);
                      if (saved) void mutate();
                    }}
                  />
                ) : (
                  <Table.Row key={row.companyId}>
                    <Table.Cell>{row.companyName}</Table.Cell>
                    <Table.Cell>{row.months}</Table.Cell>
                    <Table.Cell>{row.own ? T.own : T.groupDefault}</Table.Cell>
                    <Table.Cell>
                      <Flex gap="1" wrap="wrap">
                        <Button
                          size="xs"
                          variant="outline"
                          aria-label={`${T.edit} ${row.companyName}`}
                          ref={(button) => {
                            if (button && returnFocus.current === row.companyId) {
                              returnFocus.current = null;
                              button.focus();
                            }
                          }}
                          onClick={() => setEditing(row.companyId)}
                        >
                          {T.edit}
                        </Button>
                        {row.own && (
                          <Button
                            size="xs"
                            variant="ghost"
                            aria-label={`${T.reset} ${row.companyName}`}
                            onClick={() => void reset(row)}
                          >
                            {T.reset}
                          </Button>
                        )}
                      </Flex>
                    </Table.Cell>
                  </Table.Row>
                ),
              )}
            </Table.Body>
          </Table.Root>
        )}
      </Box>
    </Stack>
  );
}
