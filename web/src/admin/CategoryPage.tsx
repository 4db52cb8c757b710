import { Box, Button, Flex, Heading, HStack, Input, Stack, Table } from '@chakra-ui/react';
import { caseCategorySchema, FIELD_MESSAGES, UI_MESSAGES } from '@wbs/shared';
import { type FormEvent, useState } from 'react';
import useSWR from 'swr';
import { ApiError, api } from '../api/client.ts';
import type { CaseCategory, Items, MessageReply, Option } from '../api/types.ts';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { FormField } from '../ui/FormField.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { SelectInput } from '../ui/SelectInput.tsx';
import { notify } from '../ui/toaster.tsx';
import { type Errors, validate } from '../ui/validate.ts';

type Mode = { kind: 'list' } | { kind: 'add' } | { kind: 'view' | 'edit'; category: CaseCategory };

const TITLES = {
  add: 'Kategori Pengaduan Baru',
  edit: 'Edit Kategori Pengaduan',
  view: 'Lihat Kategori Pegaduan',
};

/** Kategori Laporan (user type 2, own company): list with View/Edit and the category form. */
export function CategoryPage() {
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const categories = useSWR<Items<CaseCategory>>('/case-categories');
  const groups = useSWR<Items<Option>>('/case-category-groups');

  if (mode.kind !== 'list') {
    return (
      <CategoryForm
        mode={mode}
        groups={groups.data?.items ?? []}
        onBack={(saved) => {
          setMode({ kind: 'list' });
          if (saved) void categories.mutate();
        }}
        onEdit={(category) => setMode({ kind: 'edit', category })}
      />
    );
  }
  const rows = categories.data?.items ?? [];
  return (
    <Stack gap="5">
      <Flex justify="space-between" align="center" wrap="wrap" gap="3">
        <Heading as="h1" size="2xl">
          Kategori Laporan
        </Heading>
        <Button onClick={() => setMode({ kind: 'add' })}>Tambah Kategori</Button>
      </Flex>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" overflowX="auto">
        {categories.isLoading ? (
          <PageSpinner />
        ) : (
          <Table.Root size="sm" aria-label="Kategori Laporan">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Grup Kategori</Table.ColumnHeader>
                <Table.ColumnHeader>Nama Kategori</Table.ColumnHeader>
                <Table.ColumnHeader>Aksi</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.length === 0 && (
                <Table.Row>
                  <Table.Cell colSpan={3} textAlign="center" color="fg.muted">
                    {UI_MESSAGES.notFoundData}
                  </Table.Cell>
                </Table.Row>
              )}
              {rows.map((c) => (
                <Table.Row key={c.id}>
                  <Table.Cell>{c.groupName ?? ''}</Table.Cell>
                  <Table.Cell>{c.name}</Table.Cell>
                  <Table.Cell>
                    <HStack gap="1">
                      <Button
                        size="xs"
                        variant="outline"
                        onClick={() => setMode({ kind: 'view', category: c })}
                      >
                        Lihat
                      </Button>
                      <Button
                        size="xs"
                        variant="outline"
                        onClick={() => setMode({ kind: 'edit', category: c })}
                      >
                        Ubah
                      </Button>
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Box>
    </Stack>
  );
}

function CategoryForm(props: {
  mode: Exclude<Mode, { kind: 'list' }>;
  groups: Option[];
  onBack: (saved: boolean) => void;
  onEdit: (category: CaseCategory) => void;
}) {
  const { mode } = props;
  const existing = mode.kind === 'add' ? null : mode.category;
  const [name, setName] = useState(existing?.name ?? '');
  const [groupId, setGroupId] = useState(existing?.groupId ?? 0);
  const [errors, setErrors] = useState<Errors>({});
  const confirm = useConfirm();
  const loading = useLoading();
  const readOnly = mode.kind === 'view';
  const hasGroups = props.groups.length > 0;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (readOnly) return;
    const result = validate(caseCategorySchema, { name, groupId });
    const found = { ...result.errors };
    if (hasGroups && !(groupId > 0)) found.groupId = FIELD_MESSAGES.categoryGroupRequired;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const ok = await confirm({
      title: 'Simpan Kategori',
      message: 'Anda yakin ingin menyimpan kategori ini ?',
      actionLabel: 'Simpan',
    });
    if (!ok) return;
    loading.show();
    try {
      const body = { name: name.trim(), groupId: hasGroups ? groupId : 0 };
      const reply = existing
        ? await api<MessageReply>(`/case-categories/${existing.id}`, { method: 'PUT', body })
        : await api<MessageReply>('/case-categories', { method: 'POST', body });
      notify.success(reply.message);
      props.onBack(true);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length) setErrors(error.fieldErrors);
      notify.problem(error);
    } finally {
      loading.hide();
    }
  }

  return (
    <Stack gap="5" maxW="lg">
      <Heading as="h1" size="2xl">
        {TITLES[mode.kind]}
      </Heading>
      <Box as="section" bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '4', md: '6' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            {hasGroups && (
              <FormField
                label="Grup Kategori"
                error={errors.groupId}
                required={!readOnly}
                disabled={readOnly}
              >
                <SelectInput
                  name="groupId"
                  value={groupId ?? 0}
                  options={props.groups}
                  disabled={readOnly}
                  placeholder="Pilih Grup Kategori"
                  onChange={setGroupId}
                />
              </FormField>
            )}
            <FormField label="Nama Kategori" error={errors.name} required={!readOnly} readOnly={readOnly}>
              <Input
                name="name"
                value={name}
                maxLength={50}
                readOnly={readOnly}
                onChange={(e) => setName(e.target.value)}
              />
            </FormField>
            <HStack gap="2" justify="flex-end">
              <Button variant="outline" type="button" onClick={() => props.onBack(false)}>
                Kembali
              </Button>
              {readOnly && existing ? (
                <Button type="button" onClick={() => props.onEdit(existing)}>
                  Ubah
                </Button>
              ) : (
                <Button type="submit">Simpan</Button>
              )}
            </HStack>
          </Stack>
        </form>
      </Box>
    </Stack>
  );
}
