import { Stack } from '@chakra-ui/react';
import { caseCategorySchema, FIELD_MESSAGES } from '@wbs/shared';
import useSWR from 'swr';
import type { CaseCategory, Items, Option } from '../api/types.ts';
import { validate } from '../ui/validate.ts';
import {
  MasterFormFrame,
  type MasterFormProps,
  MasterSelectField,
  MasterTextField,
  useMasterForm,
} from './master/MasterForm.tsx';
import { MasterScreen } from './master/MasterScreen.tsx';
import type { MasterScreenSpec } from './master/types.ts';

const CATEGORIES: MasterScreenSpec<CaseCategory> = {
  title: 'Kategori Laporan',
  addLabel: 'Tambah Kategori',
  path: '/case-categories',
  paged: false,
  columns: [
    { header: 'Grup Kategori', cell: (c) => c.groupName ?? '' },
    { header: 'Nama Kategori', cell: (c) => c.name },
  ],
  titles: {
    add: 'Kategori Pengaduan Baru',
    edit: 'Edit Kategori Pengaduan',
    view: 'Lihat Kategori Pegaduan',
  },
  saveConfirm: { title: 'Simpan Kategori', message: 'Anda yakin ingin menyimpan kategori ini ?' },
};

/** Kategori Laporan (user type 2, own company): list with Lihat/Ubah and the category form. */
export function CategoryPage() {
  return <MasterScreen spec={CATEGORIES} Form={CategoryForm} />;
}

type Values = { name: string; groupId: number };

function CategoryForm(props: MasterFormProps<CaseCategory>) {
  const groups = useSWR<Items<Option>>('/case-category-groups');
  const groupOptions = groups.data?.items ?? [];
  const hasGroups = groupOptions.length > 0;
  const { form, load } = useMasterForm(props, {
    empty: { name: '', groupId: 0 },
    toValues: (c): Values => ({ name: c.name ?? '', groupId: c.groupId ?? 0 }),
    // The category list carries every field; the legacy has no category detail call.
    detail: false,
    validate: (values) => {
      const result = validate(caseCategorySchema, { ...values, groupId: hasGroups ? values.groupId : 0 });
      // A group must be chosen only where the company has groups.
      if (!hasGroups || values.groupId > 0) return result;
      return { ok: false, errors: { ...result.errors, groupId: FIELD_MESSAGES.categoryGroupRequired } };
    },
  });
  return (
    <MasterFormFrame form={form} screen={props} load={{ ...load, ready: load.ready && !groups.isLoading }}>
      <Stack gap="4" maxW="lg">
        {hasGroups && (
          <MasterSelectField
            form={form}
            name="groupId"
            label="Grup Kategori"
            placeholder="Pilih Grup Kategori"
            options={groupOptions}
          />
        )}
        <MasterTextField form={form} name="name" label="Nama Kategori" maxLength={50} />
      </Stack>
    </MasterFormFrame>
  );
}
