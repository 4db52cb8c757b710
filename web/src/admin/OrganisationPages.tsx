import { Input, SimpleGrid } from '@chakra-ui/react';
import { companySchema, partnerSchema } from '@wbs/shared';
import { useEffect, useState } from 'react';
import useSWR from 'swr';
import type { Items, Option } from '../api/types.ts';
import { FormField } from '../ui/FormField.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { SelectInput } from '../ui/SelectInput.tsx';
import { type Errors, validate } from '../ui/validate.ts';
import { type FormMode, MasterFormFrame, MasterScreen } from './MasterScreen.tsx';
import { useSave } from './useSave.ts';

type Organisation = {
  id: number;
  code: string | null;
  name: string;
  phone: string | null;
  address: string | null;
  provinceId: number | null;
  provinceName: string | null;
  cityId: number | null;
  cityName: string | null;
  partnerId?: number | null;
  partnerName?: string | null;
  username: string | null;
  email: string | null;
};

type Kind = 'partner' | 'company';

const TEXT = {
  partner: {
    title: 'Partner',
    path: '/partners',
    add: 'Tambah Partner',
    noun: 'partner',
    titles: { add: 'Partner Baru', edit: 'Edit Partner', view: 'Lihat Partner' },
    confirm: { title: 'Simpan Partner', message: 'Anda yakin ingin menyimpan partner ini ?' },
    remove: { title: 'Hapus Partner', message: 'Anda yakin ingin menghapus partner ini ?' },
  },
  company: {
    title: 'Perusahaan',
    path: '/companies',
    add: 'Tambah Perusahaan',
    noun: 'perusahaan',
    titles: { add: 'Perusahaan Baru', edit: 'Edit Perusahaan', view: 'Lihat Perusahaan' },
    confirm: { title: 'Simpan Perusahaan', message: 'Anda yakin ingin menyimpan perusahaan ini ?' },
    remove: { title: 'Hapus Perusahaan', message: 'Anda yakin ingin menghapus perusahaan ini ?' },
  },
} as const;

export function PartnerPage() {
  return <OrganisationPage kind="partner" />;
}

export function CompanyPage() {
  return <OrganisationPage kind="company" />;
}

function OrganisationPage({ kind }: { kind: Kind }) {
  const text = TEXT[kind];
  const columns =
    kind === 'partner'
      ? [
          { header: 'Kode', cell: (r: Organisation) => r.code ?? '-' },
          { header: 'Nama', cell: (r: Organisation) => r.name },
          { header: 'No. Telepon', cell: (r: Organisation) => r.phone ?? '-' },
          { header: 'Alamat', cell: (r: Organisation) => r.address ?? '-' },
        ]
      : [
          { header: 'Kode', cell: (r: Organisation) => r.code ?? '-' },
          { header: 'Nama', cell: (r: Organisation) => r.name },
          { header: 'Partner', cell: (r: Organisation) => r.partnerName || '-' },
          { header: 'Alamat', cell: (r: Organisation) => r.address ?? '-' },
        ];
  return (
    <MasterScreen<Organisation>
      title={text.title}
      addLabel={text.add}
      path={text.path}
      columns={columns}
      rowName={(r) => r.name}
      deleteTitle={text.remove.title}
      deleteMessage={text.remove.message}
      renderForm={(mode, done, switchTo) => (
        <OrganisationForm kind={kind} mode={mode} done={done} switchTo={switchTo} />
      )}
    />
  );
}

type Values = {
  name: string;
  username: string;
  email: string;
  phone: string;
  address: string;
  provinceId: number;
  cityId: number;
  partnerId: number;
};

const EMPTY: Values = {
  name: '',
  username: '',
  email: '',
  phone: '',
  address: '',
  provinceId: 0,
  cityId: 0,
  partnerId: 0,
};

function OrganisationForm(props: {
  kind: Kind;
  mode: FormMode;
  done: (saved: boolean) => void;
  switchTo: (mode: FormMode) => void;
}) {
  const { kind, mode } = props;
  const text = TEXT[kind];
  const id = mode.kind === 'add' ? null : mode.id;
  const record = useSWR<Organisation>(id ? `${text.path}/${id}` : null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const { save, serverErrors } = useSave();
  const provinces = useSWR<Items<Option>>('/regions/provinces');
  const cities = useSWR<Items<Option>>(
    values.provinceId > 0 ? `/regions/provinces/${values.provinceId}/cities` : null,
  );
  const partners = useSWR<Items<Option>>(kind === 'company' ? '/partners/options' : null);
  const readOnly = mode.kind === 'view';
  const locked = mode.kind !== 'add'; // username and e-mail cannot change after creation

  useEffect(() => {
    const r = record.data;
    if (!r) return;
    setValues({
      name: r.name ?? '',
      username: r.username ?? '',
      email: r.email ?? '',
      phone: r.phone ?? '',
      address: r.address ?? '',
      provinceId: r.provinceId ?? 0,
      cityId: r.cityId ?? 0,
      partnerId: r.partnerId ?? 0,
    });
  }, [record.data]);

  if (id && !record.data) return <PageSpinner />;

  const set = (patch: Partial<Values>) => setValues((v) => ({ ...v, ...patch }));
  const shown = { ...serverErrors, ...errors };

  const submit = async () => {
    const { partnerId, ...base } = values;
    const result =
      kind === 'company' ? validate(companySchema, { ...base, partnerId }) : validate(partnerSchema, base);
    setErrors(result.errors);
    if (!result.ok) return;
    const saved = await save(
      { ...text.confirm, actionLabel: 'Simpan' },
      id ? `${text.path}/${id}` : text.path,
      id ? 'PUT' : 'POST',
      result.value,
    );
    if (saved) props.done(true);
  };

  return (
    <MasterFormFrame
      title={text.titles[mode.kind]}
      readOnly={readOnly}
      onBack={() => props.done(false)}
      onEdit={id ? () => props.switchTo({ kind: 'edit', id }) : undefined}
      onSubmit={() => void submit()}
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField label="Nama" error={shown.name} required={!readOnly}>
          <Input
            name="name"
            value={values.name}
            maxLength={50}
            readOnly={readOnly}
            onChange={(e) => set({ name: e.target.value })}
          />
        </FormField>
        <FormField label="No. Telepon" error={shown.phone} required={!readOnly}>
          <Input
            name="phone"
            inputMode="numeric"
            value={values.phone}
            maxLength={50}
            readOnly={readOnly}
            onChange={(e) => set({ phone: e.target.value })}
          />
        </FormField>
        <FormField label="Username" error={shown.username} required={!readOnly}>
          <Input
            name="username"
            value={values.username}
            maxLength={50}
            readOnly={readOnly || locked}
            onChange={(e) => set({ username: e.target.value })}
          />
        </FormField>
        <FormField label="Email" error={shown.email} required={!readOnly}>
          <Input
            name="email"
            type="email"
            value={values.email}
            maxLength={100}
            readOnly={readOnly || locked}
            onChange={(e) => set({ email: e.target.value })}
          />
        </FormField>
        <FormField label="Alamat" error={shown.address} required={!readOnly}>
          <Input
            name="address"
            value={values.address}
            maxLength={50}
            readOnly={readOnly}
            onChange={(e) => set({ address: e.target.value })}
          />
        </FormField>
        {kind === 'company' && (
          <FormField label="Partner" error={shown.partnerId}>
            <SelectInput
              name="partnerId"
              value={values.partnerId}
              options={partners.data?.items ?? []}
              disabled={readOnly}
              placeholder="Tanpa Partner"
              onChange={(partnerId) => set({ partnerId })}
            />
          </FormField>
        )}
        <FormField label="Provinsi" error={shown.provinceId} required={!readOnly}>
          <SelectInput
            name="provinceId"
            value={values.provinceId}
            options={provinces.data?.items ?? []}
            disabled={readOnly}
            placeholder="Pilih Provinsi"
            onChange={(provinceId) => set({ provinceId, cityId: 0 })}
          />
        </FormField>
        <FormField label="Kota" error={shown.cityId} required={!readOnly}>
          <SelectInput
            name="cityId"
            value={values.cityId}
            options={cities.data?.items ?? []}
            disabled={readOnly || values.provinceId === 0}
            placeholder="Pilih Kota"
            onChange={(cityId) => set({ cityId })}
          />
        </FormField>
      </SimpleGrid>
    </MasterFormFrame>
  );
}
