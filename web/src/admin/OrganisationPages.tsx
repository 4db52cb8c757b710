import { SimpleGrid } from '@chakra-ui/react';
import { companySchema, partnerSchema } from '@wbs/shared';
import { type ApiBody, type ApiReply, api, read, withId } from '../api/client.ts';
import type { ResettableAccount } from '../second-factor/calls.ts';
import { ResetSecondFactorButton } from '../second-factor/ResetSecondFactorButton.tsx';
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
import { type MasterScreenSpec, pageParams } from './master/types.ts';

/** A partner, or a company (which also names its partner). */
type Organisation = ApiReply<'get', '/api/v1/partners/{id}'> &
  Partial<Pick<ApiReply<'get', '/api/v1/companies/{id}'>, 'partnerId' | 'partnerName'>>;

const PARTNER: MasterScreenSpec<Organisation, ApiBody<'post', '/api/v1/partners'>> = {
  title: 'Partner',
  addLabel: 'Tambah Partner',
  api: {
    path: '/api/v1/partners',
    list: (page) => read('/api/v1/partners', pageParams(page)),
    detail: (id) => read('/api/v1/partners/{id}', withId(id)),
    save: (body, id) =>
      id === undefined
        ? api.POST('/api/v1/partners', { body })
        : api.PUT('/api/v1/partners/{id}', { ...withId(id), body }),
  },
  paged: true,
  columns: [
    { header: 'Kode', cell: (r) => r.code ?? '-' },
    { header: 'Nama', cell: (r) => r.name },
    { header: 'No. Telepon', cell: (r) => r.phone ?? '-' },
    { header: 'Alamat', cell: (r) => r.address ?? '-' },
  ],
  titles: { add: 'Partner Baru', edit: 'Edit Partner', view: 'Lihat Partner' },
  saveConfirm: { title: 'Simpan Partner', message: 'Anda yakin ingin menyimpan partner ini ?' },
  remove: {
    title: 'Hapus Partner',
    message: 'Anda yakin ingin menghapus partner ini ?',
    call: (id) => api.DELETE('/api/v1/partners/{id}', withId(id)),
  },
};

const COMPANY: MasterScreenSpec<Organisation, ApiBody<'post', '/api/v1/companies'>> = {
  title: 'Perusahaan',
  addLabel: 'Tambah Perusahaan',
  api: {
    path: '/api/v1/companies',
    list: (page) => read('/api/v1/companies', pageParams(page)),
    detail: (id) => read('/api/v1/companies/{id}', withId(id)),
    save: (body, id) =>
      id === undefined
        ? api.POST('/api/v1/companies', { body })
        : api.PUT('/api/v1/companies/{id}', { ...withId(id), body }),
  },
  paged: true,
  columns: [
    { header: 'Kode', cell: (r) => r.code ?? '-' },
    { header: 'Nama', cell: (r) => r.name },
    { header: 'Partner', cell: (r) => r.partnerName || '-' },
    { header: 'Alamat', cell: (r) => r.address ?? '-' },
  ],
  titles: { add: 'Perusahaan Baru', edit: 'Edit Perusahaan', view: 'Lihat Perusahaan' },
  saveConfirm: { title: 'Simpan Perusahaan', message: 'Anda yakin ingin menyimpan perusahaan ini ?' },
  remove: {
    title: 'Hapus Perusahaan',
    message: 'Anda yakin ingin menghapus perusahaan ini ?',
    call: (id) => api.DELETE('/api/v1/companies/{id}', withId(id)),
  },
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

function PartnerForm(props: MasterFormProps<Organisation, ApiBody<'post', '/api/v1/partners'>>) {
  const { form, load } = useMasterForm(props, {
    empty: EMPTY,
    toValues,
    validate: ({ partnerId: _none, ...values }) => validate(partnerSchema, values),
    accountOf: (v) => v.username.trim(),
  });
  return <OrganisationFields form={form} load={load} props={props} account="partners" />;
}

function CompanyForm(props: MasterFormProps<Organisation, ApiBody<'post', '/api/v1/companies'>>) {
  const { form, load } = useMasterForm(props, {
    empty: EMPTY,
    toValues,
    validate: (values) => validate(companySchema, values),
    accountOf: (v) => v.username.trim(),
  });
  return (
    <OrganisationFields form={form} load={load} props={props} account="companies">
      <MasterSelectField
        form={form}
        name="partnerId"
        label="Partner"
        placeholder="Tanpa Partner"
        optional
        source={read('/api/v1/partners/options')}
      />
    </OrganisationFields>
  );
}

/** The fields partners and companies share (spec section 4: username and e-mail fixed after creation). */
function OrganisationFields<B>(props: {
  form: MasterForm<Values>;
  load: MasterLoad;
  props: MasterFormProps<Organisation, B>;
  /** The sign-in account's kind, for Reset Faktor Kedua in View. */
  account: ResettableAccount;
  children?: React.ReactNode;
}) {
  const { form } = props;
  const { mode } = props.props;
  const provinceId = form.values.provinceId;
  return (
    <MasterFormFrame
      form={form}
      screen={props.props}
      load={props.load}
      extra={
        mode.kind === 'view' ? <ResetSecondFactorButton kind={props.account} id={mode.row.id} /> : undefined
      }
    >
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
          source={read('/api/v1/regions/provinces')}
          onPick={(id) => ({ provinceId: id, cityId: 0 })}
        />
        <MasterSelectField
          form={form}
          name="cityId"
          label="Kota"
          placeholder="Pilih Kota"
          source={
            provinceId > 0
              ? read('/api/v1/regions/provinces/{provinceId}/cities', {
                  params: { path: { provinceId: String(provinceId) } },
                })
              : null
          }
          disabled={provinceId === 0}
        />
      </SimpleGrid>
    </MasterFormFrame>
  );
}
