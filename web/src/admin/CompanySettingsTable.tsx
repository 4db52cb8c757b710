/**
 * A setting each company has, with a group default (Tenggat Penanganan, Retensi Data): one row per
 * company with its numbers and where they come from; for who may manage it, Ubah opens the row's
 * fields in place (the first takes the focus, Enter saves, a refused value shows under its field,
 * after Simpan or Batal the focus is back on Ubah) and Kembalikan ke bawaan returns a company's own
 * setting to the default.
 */
import { Box, Button, Flex, HStack, Input, Stack, Table, Text } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared';
import { useEffect, useRef, useState } from 'react';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import { useFormErrors } from '../ui/useFormErrors.ts';
import { COMPANY_SETTING_TEXTS } from './companySettingTexts.ts';

const T = COMPANY_SETTING_TEXTS;

export type CompanySettingRow = { companyId: number; companyName: string; own: boolean };
/** One number of the setting: the row's key, its column label and its allowed range. */
export type SettingField<Key extends string> = {
  name: Key;
  label: string;
  range: { min: number; max: number };
};

type Props<Key extends string, Row extends CompanySettingRow & Record<Key, number>> = {
  /** The table's accessible name (the screen's title). */
  label: string;
  fields: readonly SettingField<Key>[];
  rows: readonly Row[] | undefined;
  loading: boolean;
  failed: boolean;
  manage: boolean;
  save(row: Row, values: Record<Key, number>): Promise<{ message: string }>;
  reset(row: Row): Promise<{ message: string }>;
  /** After a save or reset: the list is read again. */
  onChanged(): void;
  maxW: string;
};

function EditRow<Key extends string, Row extends CompanySettingRow & Record<Key, number>>(props: {
  row: Row;
  fields: readonly SettingField<Key>[];
  save: Props<Key, Row>['save'];
  onDone: (saved: boolean) => void;
}) {
  const { row, fields } = props;
  const [values, setValues] = useState(() =>
    Object.fromEntries(fields.map((f) => [f.name, String(row[f.name])])),
  );
  const [busy, setBusy] = useState(false);
  const { errors, showServer, clearField } = useFormErrors();
  const first = useRef<HTMLInputElement>(null);
  // The field the Ubah button opened takes the focus, so a keyboard user types at once.
  useEffect(() => first.current?.focus(), []);
  const save = async () => {
    setBusy(true);
    try {
      const numbers = Object.fromEntries(fields.map((f) => [f.name, Number(values[f.name])]));
      const reply = await props.save(row, numbers as Record<Key, number>);
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
      <Table.Cell>{row.companyName}</Table.Cell>
      {fields.map((field, index) => (
        <Table.Cell key={field.name}>
          <Stack gap="1">
            <Input
              size="sm"
              w="24"
              type="number"
              inputMode="numeric"
              min={field.range.min}
              max={field.range.max}
              aria-label={`${field.label} ${row.companyName}`}
              aria-invalid={errors[field.name] ? true : undefined}
              ref={index === 0 ? first : undefined}
              value={values[field.name]}
              onChange={(e) => {
                const value = e.target.value;
                setValues((now) => ({ ...now, [field.name]: value }));
                clearField(field.name);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter') void save();
              }}
            />
            {errors[field.name] && (
              <Text fontSize="xs" color="fg.error">
                {errors[field.name]}
              </Text>
            )}
          </Stack>
        </Table.Cell>
      ))}
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

export function CompanySettingsTable<Key extends string, Row extends CompanySettingRow & Record<Key, number>>(
  props: Props<Key, Row>,
) {
  const [editing, setEditing] = useState<number | null>(null);
  // Back on the row's Ubah button after Simpan or Batal: the focus stays where the user was.
  const returnFocus = useRef<number | null>(null);
  const columns = 2 + props.fields.length + (props.manage ? 1 : 0);
  const reset = async (row: Row) => {
    try {
      const reply = await props.reset(row);
      notify.success(reply.message);
      props.onChanged();
    } catch (e) {
      notify.problem(e);
    }
  };
  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto" maxW={props.maxW}>
      {props.loading ? (
        <PageSpinner />
      ) : (
        <Table.Root size="sm" aria-label={props.label}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{T.company}</Table.ColumnHeader>
              {props.fields.map((field) => (
                <Table.ColumnHeader key={field.name}>{field.label}</Table.ColumnHeader>
              ))}
              <Table.ColumnHeader>{T.source}</Table.ColumnHeader>
              {props.manage && <Table.ColumnHeader>{T.actions}</Table.ColumnHeader>}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(props.failed || props.rows?.length === 0) && (
              <Table.Row>
                <Table.Cell colSpan={columns} textAlign="center" color="fg.muted">
                  {UI_MESSAGES.notFoundData}
                </Table.Cell>
              </Table.Row>
            )}
            {props.rows?.map((row) =>
              editing === row.companyId ? (
                <EditRow
                  key={row.companyId}
                  row={row}
                  fields={props.fields}
                  save={props.save}
                  onDone={(saved) => {
                    returnFocus.current = row.companyId;
                    setEditing(null);
                    if (saved) props.onChanged();
                  }}
                />
              ) : (
                <Table.Row key={row.companyId}>
                  <Table.Cell>{row.companyName}</Table.Cell>
                  {props.fields.map((field) => (
                    <Table.Cell key={field.name}>{row[field.name]}</Table.Cell>
                  ))}
                  <Table.Cell>{row.own ? T.own : T.groupDefault}</Table.Cell>
                  {props.manage && (
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
                  )}
                </Table.Row>
              ),
            )}
          </Table.Body>
        </Table.Root>
      )}
    </Box>
  );
}
