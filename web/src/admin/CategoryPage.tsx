import { Stack } from '@chakra-ui/react';
import { caseCategorySchema, FIELD_MESSAGES } from '@wbs/shared';
import { type ApiBody, type ApiReply, api, read, withId } from '../api/client.ts';
import { useApi } from '../api/useApi.ts';
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

type CaseCategory = ApiReply<'get', '/api/v1/case-categories'>['items'][number];
type CaseCategoryBody = ApiBody<'post', '/api/v1/case-categories'>;

const CATEGORIES: MasterScreenSpec<CaseCategory, CaseCategoryBody> = {
  title: 'Kategori Laporan',
  addLabel: 'Tambah Kategori',
  api: {
    path: '/api/v1/case-categories',
    list: () => read('/api/v1/case-categories'),
    // No detail: the category list carries every field; the legacy has no category detail call.
    save: (body, id) =>
      id === undefined
        ? api.POST('/api/v1/case-categories', { body })
        : api.PUT('/api/v1/case-categories/{id}', { ...withId(id), body }),
  },
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

function CategoryForm(props: MasterFormProps<CaseCategory, CaseCategoryBody>) {
  const groups = useApi(read('/api/v1/case-category-groups'));
  const groupOptions = groups.data?.items ?? [];
  const hasGroups = groupOptions.length > 0;
  const { form, load } = useMasterForm(props, {
    empty: { name: '', groupId: 0 },
    toValues: (c): Values => ({ name: c.name ?? '', groupId: c.groupId ?? 0 }),
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
