import { Box, Button, HStack, IconButton, Input, Stack, Table, Text } from '@chakra-ui/react';
import { FIELD_LIMITS } from '@wbs/shared';
import type { InvolvedRow } from '../wizardModel.ts';
import type { StepProps } from './types.ts';

const SINGLE = FIELD_LIMITS.singleLineInput;

/** The editable columns of a row, with the words of their accessible names. */
const COLUMNS = [
  { field: 'name', label: 'Nama', minW: '32' },
  { field: 'position', label: 'Posisi', minW: '32' },
  { field: 'description', label: 'Keterangan', minW: '40' },
] as const;

let rowCounter = 0;
const newRow = (): InvolvedRow => ({ key: `row-${++rowCounter}`, name: '', position: '', description: '' });

/** Pihak yang Diduga Terlibat: rows added, edited and removed in place. */
export function InvolvedTable({ state, update }: Pick<StepProps, 'state' | 'update'>) {
  const setRow = (key: string, patch: Partial<InvolvedRow>) =>
    update({
      allegedlyInvolved: state.allegedlyInvolved.map((r) => (r.key === key ? { ...r, ...patch } : r)),
    });
  return (
    <Stack gap="2">
      <HStack justify="space-between" wrap="wrap">
        <Text fontWeight="medium" id="involved-title">
          Pihak yang Diduga Terlibat
        </Text>
        <Button
          size="sm"
          variant="outline"
          type="button"
          onClick={() => update({ allegedlyInvolved: [...state.allegedlyInvolved, newRow()] })}
        >
          Tambah Pihak Terkait
        </Button>
      </HStack>
      <Box maxH="200px" overflowY="auto" borderWidth="1px" rounded="md">
        <Table.Root size="sm" aria-labelledby="involved-title" stickyHeader>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader w="10">No</Table.ColumnHeader>
              <Table.ColumnHeader>Nama</Table.ColumnHeader>
              <Table.ColumnHeader>Posisi</Table.ColumnHeader>
              <Table.ColumnHeader>Keterangan (area / unit bisnis)</Table.ColumnHeader>
              <Table.ColumnHeader w="10">
                <Box as="span" srOnly>
                  Aksi
                </Box>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {state.allegedlyInvolved.length === 0 && (
              <Table.Row>
                <Table.Cell colSpan={5} color="fg.muted" textAlign="center">
                  Belum ada pihak terkait.
                </Table.Cell>
              </Table.Row>
            )}
            {state.allegedlyInvolved.map((row, index) => (
              <Table.Row key={row.key}>
                <Table.Cell>{index + 1}</Table.Cell>
                {COLUMNS.map((column) => (
                  <Table.Cell key={column.field} minW={column.minW}>
                    <Input
                      size="sm"
                      aria-label={`${column.label} pihak terkait baris ${index + 1}`}
                      value={row[column.field]}
                      maxLength={SINGLE}
                      onChange={(e) => setRow(row.key, { [column.field]: e.target.value })}
                    />
                  </Table.Cell>
                ))}
                <Table.Cell>
                  <IconButton
                    size="xs"
                    variant="ghost"
                    colorPalette="red"
                    aria-label={`Hapus baris ${index + 1}`}
                    onClick={() =>
                      update({
                        allegedlyInvolved: state.allegedlyInvolved.filter((r) => r.key !== row.key),
                      })
                    }
                  >
                    <TrashIcon />
                  </IconButton>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
    </Stack>
  );
}

function TrashIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6" />
    </svg>
  );
}
