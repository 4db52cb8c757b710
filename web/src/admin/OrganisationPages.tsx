import { SimpleGrid } from '@chakra-ui/react';
import { companySchema, partnerSchema } from '@wbs/shared';
import { validate } from '../ui/validate.ts';
import {
  type MasterForm,
  MasterFormFrame,
  type MasterFormProps,
  type MasterLoad,
  MasterSelectField,
  MasterTextField,
  useMasterForm,
} from './master/MasterForm.tsx';
import { MasterScreen } from './master/MasterScreen.tsx';
import type { MasterScreenSpec } from './master/types.ts';

type Organisation = {
  id: number;
  code: string | null;
  name: string;
  phone: string | null;
  address: string | null;
  provinceId: number | null;
  cityId: number | null;
  partnerId?: number | null;
  partnerName?: string | null;
  username: string | null;
  email: string | null;
};

const PARTNER: MasterScreenSpec<Organisation> = {
  title: 'Partner',
  addLabel: 'Tambah Partner',
  path: '/partners',
  paged: true,
  columns: [
    { header: 'Kode', cell: (r) => r.code ?? '-' },
    { header: 'Nama', cell: (r) => r.name },
    { header: 'No. Telepon', cell: (r) => r.phone ?? '-' },
    { header: 'Alamat', cell: (r) => r.address ?? '-' },
  ],
  titles: { add: 'Partner Baru', edit: 'Edit Partner', view: 'Lihat Partner' },
  saveConfirm: { title: 'Simpan Partner', message: 'Anda yakin ingin menyimpan partner ini ?' },
  remove: { title: 'Hapus Partner', message: 'Anda yakin ingin menghapus partner ini ?' },
};

const COMPANY: MasterScreenSpec<Organisation> = {
  title: 'Perusahaan',
  addLabel: 'Tambah Perusahaan',
  path: '/companies',
  paged: true,
  columns: [
    { header: 'Kode', cell: (r) => r.code ?? '-' },
    { header: 'Nama', cell: (r) => r.name },
    { header: 'Partner', cell: (r) => r.partnerName || '-' },
    { header: 'Alamat', cell: (r) => r.address ?? '-' },
  ],
  titles: { add: 'Perusahaan Baru', edit: 'Edit Perusahaan', view: 'Lihat Perusahaan' },
  saveConfirm: { title: 'Simpan Perusahaan', message: 'Anda yakin ingin menyimpan perusahaan ini ?' },
  remove: { title: 'Hapus Perusahaan', message: 'Anda yakin ingin menghapus perusahaan ini ?' },
};

/** /admin/partner (type 1). */
export function PartnerPage() {
  return <MasterScreen spec={PARTNER} Form={PartnerForm} />;
}

/** /admin/company (type 1). */
export function CompanyPage() {
  return <MasterScreen spec={COMPANY} Form={CompanyForm} />;
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

const toValues = (r: Organisation): Values => ({
  name: r.name ?? '',
  username: r.username ?? '',
  email: r.email ?? '',
  phone: r.phone ?? '',
  address: r.address ?? '',
  provinceId: r.provinceId ?? 0,
  cityId: r.cityId ?? 0,
  partnerId: r.partnerId ?? 0,
});

function PartnerForm(props: MasterFormProps<Organisation>) {
  const { form, load } = useMasterForm(props, {
    empty: EMPTY,
    toValues,
    detail: true,
    validate: ({ partnerId: _none, ...values }) => validate(partnerSchema, values),
    accountOf: (v) => v.username.trim(),
  });
  return <OrganisationFields form={form} load={load} props={props} />;
}

function CompanyForm(props: MasterFormProps<Organisation>) {
  const { form, load } = useMasterForm(props, {
    empty: EMPTY,
    toValues,
    detail: true,
    validate: (values) => validate(companySchema, values),
    accountOf: (v) => v.username.trim(),
  });
  return (
    <OrganisationFields form={form} load={load} props={props}>
      <MasterSelectField
        form={form}
        name="partnerId"
        label="Partner"
        placeholder="Tanpa Partner"
        optional
        source="/partners/options"
      />
    </OrganisationFields>
  );
}

/** The fields partners and companies share (spec section 4: username and e-mail fixed after creation). */
function OrganisationFields(props: {
  form: MasterForm<Values>;
  load: MasterLoad;
  props: MasterFormProps<Organisation>;
  children?: React.ReactNode;
}) {
  const { form } = props;
  const provinceId = form.values.provinceId;
  return (
    <MasterFormFrame form={form} screen={props.props} load={props.load}>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <MasterTextField form={form} name="name" label="Nama" maxLength={50} />
        <MasterTextField form={form} name="phone" label="No. Telepon" maxLength={50} inputMode="numeric" />
        <MasterTextField form={form} name="username" label="Username" maxLength={50} fixed />
        <MasterTextField form={form} name="email" label="Email" type="email" maxLength={100} fixed />
        <MasterTextField form={form} name="address" label="Alamat" maxLength={50} />
        {props.children}
        <MasterSelectField
          form={form}
          name="provinceId"
          label="Provinsi"
          placeholder="Pilih Provinsi"
          source="/regions/provinces"
          onPick={(id) => ({ provinceId: id, cityId: 0 })}
        />
        <MasterSelectField
          form={form}
          name="cityId"
          label="Kota"
          placeholder="Pilih Kota"
          source={provinceId > 0 ? `/regions/provinces/${provinceId}/cities` : null}
          disabled={provinceId === 0}
        />
      </SimpleGrid>
    </MasterFormFrame>
  );
}
