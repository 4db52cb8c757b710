/**
 * Tenggat Penanganan: each company's acknowledgement and feedback deadlines. The group
 * administrator (type 1) gives a company its own or returns it to the group default; company admins and
 * partners read theirs. A change applies to reports seen from then on (a promised date never moves).
 */
import { Box, Button, Flex, Heading, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { can, UI_MESSAGES } from '@wbs/shared';
import { ACK_DAYS_RANGE, FEEDBACK_MONTHS_RANGE } from '@wbs/shared/handling-clock';
import { useState } from 'react';
import { type ApiReply, api, read } from '../api/client.ts';
import { subjectOf, type User } from '../api/types.ts';
import { useApi } from '../api/useApi.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import { useFormErrors } from '../ui/useFormErrors.ts';

type Row = ApiReply<'get', '/api/v1/handling-deadlines'>['companies'][number];

/** The path parameter naming the row's company. */
const companyOf = (row: Row) => ({ params: { path: { id: String(row.companyId) } } });

export const DEADLINE_TEXTS = {
  title: 'Tenggat Penanganan',
  intro:
    'Tenggat tanda terima dihitung dalam hari kalender dan tenggat tanggapan dalam bulan kalender sejak ' +
    'tanggal laporan dibuat (WIB), termasuk akhir pekan dan hari libur. Perubahan berlaku untuk laporan ' +
    'yang tercatat setelahnya; tanggal yang sudah dijanjikan kepada pelapor tidak berubah.',
  company: 'Perusahaan',
  ackDays: 'Tanda terima (hari)',
  feedbackMonths: 'Tanggapan (bulan)',
  source: 'Sumber',
  own: 'Khusus perusahaan',
  groupDefault: 'Bawaan grup',
  edit: 'Ubah',
  save: 'Simpan',
  cancel: 'Batal',
  reset: 'Kembalikan ke bawaan',
  actions: 'Aksi',
} as const;

function EditRow(props: { row: Row; onDone: (saved: boolean) => void }) {
  const [ackDays, setAckDays] = useState(String(props.row.ackDays));
  const [feedbackMonths, setFeedbackMonths] = useState(String(props.row.feedbackMonths));
  const [busy, setBusy] = useState(false);
  const { errors, showServer, clearField } = useFormErrors();
  const save = async () => {
    setBusy(true);
    try {
      const reply = await api.PUT('/api/v1/handling-deadlines/{id}', {
        ...companyOf(props.row),
        body: { ackDays: Number(ackDays), feedbackMonths: Number(feedbackMonths) },
      });
      notify.success(reply.message);
      props.onDone(true);
    } catch (error) {
      if (!showServer(error)) notify.problem(error);
    } finally {
      setBusy(false);
    }
  };
  const field = (
    name: 'ackDays' | 'feedbackMonths',
    value: string,
    set: (value: string) => void,
    range: { min: number; max: number },
  ) => (
    <Stack gap="1">
      <Input
        size="sm"
        w="24"
        type="number"
        inputMode="numeric"
        min={range.min}
        max={range.max}
        aria-label={`${DEADLINE_TEXTS[name]} ${props.row.companyName}`}
        aria-invalid={errors[name] ? true : undefined}
        value={value}
        onChange={(e) => {
          set(e.target.value);
          clearField(name);
        }}
      />
      {errors[name] && (
        <Text fontSize="xs" color="fg.error">
          {errors[name]}
        </Text>
      )}
    </Stack>
  );
  return (
    <Table.Row>
      <Table.Cell>{props.row.companyName}</Table.Cell>
      <Table.Cell>{field('ackDays', ackDays, setAckDays, ACK_DAYS_RANGE)}</Table.Cell>
      <Table.Cell>
        {field('feedbackMonths', feedbackMonths, setFeedbackMonths, FEEDBACK_MONTHS_RANGE)}
      </Table.Cell>
      <Table.Cell />
      <Table.Cell>
        <HStack gap="1">
          <Button size="xs" onClick={save} loading={busy}>
            {DEADLINE_TEXTS.save}
          </Button>
          <Button size="xs" variant="outline" onClick={() => props.onDone(false)} disabled={busy}>
            {DEADLINE_TEXTS.cancel}
          </Button>
        </HStack>
      </Table.Cell>
    </Table.Row>
  );
}

export function HandlingDeadlinesPage({ user }: { user: User }) {
  const { data, error, isLoading, mutate } = useApi(read('/api/v1/handling-deadlines'));
  const [editing, setEditing] = useState<number | null>(null);
  const manage = can(subjectOf(user), 'handling-deadlines:manage');
  const reset = async (row: Row) => {
    try {
      const reply = await api.DELETE('/api/v1/handling-deadlines/{id}', companyOf(row));
      notify.success(reply.message);
      await mutate();
    } catch (e) {
      notify.problem(e);
    }
  };
  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        {DEADLINE_TEXTS.title}
      </Heading>
      <Text color="fg.muted" maxW="3xl">
        {DEADLINE_TEXTS.intro}
        {data &&
          ` ${DEADLINE_TEXTS.groupDefault}: ${data.defaults.ackDays} hari / ${data.defaults.feedbackMonths} bulan.`}
      </Text>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto" maxW="4xl">
        {isLoading ? (
          <PageSpinner />
        ) : (
          <Table.Root size="sm" aria-label={DEADLINE_TEXTS.title}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{DEADLINE_TEXTS.company}</Table.ColumnHeader>
                <Table.ColumnHeader>{DEADLINE_TEXTS.ackDays}</Table.ColumnHeader>
                <Table.ColumnHeader>{DEADLINE_TEXTS.feedbackMonths}</Table.ColumnHeader>
                <Table.ColumnHeader>{DEADLINE_TEXTS.source}</Table.ColumnHeader>
                {manage && <Table.ColumnHeader>{DEADLINE_TEXTS.actions}</Table.ColumnHeader>}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {(error || data?.companies.length === 0) && (
                <Table.Row>
                  <Table.Cell colSpan={manage ? 5 : 4} textAlign="center" color="fg.muted">
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
                      setEditing(null);
                      if (saved) void mutate();
                    }}
                  />
                ) : (
                  <Table.Row key={row.companyId}>
                    <Table.Cell>{row.companyName}</Table.Cell>
                    <Table.Cell>{row.ackDays}</Table.Cell>
                    <Table.Cell>{row.feedbackMonths}</Table.Cell>
                    <Table.Cell>{row.own ? DEADLINE_TEXTS.own : DEADLINE_TEXTS.groupDefault}</Table.Cell>
                    {manage && (
                      <Table.Cell>
                        <Flex gap="1" wrap="wrap">
                          <Button
                            size="xs"
                            variant="outline"
                            aria-label={`${DEADLINE_TEXTS.edit} ${row.companyName}`}
                            onClick={() => setEditing(row.companyId)}
                          >
                            {DEADLINE_TEXTS.edit}
                          </Button>
                          {row.own && (
                            <Button size="xs" variant="ghost" onClick={() => void reset(row)}>
                              {DEADLINE_TEXTS.reset}
                            </Button>
                          )}
                        </Flex>
                      </Table.Cell>
                    )}
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
