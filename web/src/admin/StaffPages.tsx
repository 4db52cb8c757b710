import { Button, SimpleGrid } from '@chakra-ui/react';
import { analystSchema, DEFAULT_ROLE_ID, partnerStaffSchema } from '@wbs/shared';
import { type ApiBody, type ApiReply, api, read, withId } from '../api/client.ts';
import { ResetSecondFactorButton } from '../second-factor/ResetSecondFactorButton.tsx';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { FormField } from '../ui/FormField.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { notify } from '../ui/toaster.tsx';
import { validate } from '../ui/validate.ts';
import { CopyablePassword } from './master/InitialPassword.tsx';
import {
  MasterFormFrame,
  type MasterFormProps,
  MasterSelectField,
  MasterTextField,
  useMasterForm,
  type Validation,
} from './master/MasterForm.tsx';
import { MasterScreen } from './master/MasterScreen.tsx';
import { type MasterScreenSpec, pageParams } from './master/types.ts';

/** A partner's staff member, or a company's analyst (who also has a case line). */
type Staff = ApiReply<'get', '/api/v1/partner-staff/{id}'> &
  Partial<Pick<ApiReply<'get', '/api/v1/analysts/{id}'>, 'caseLineId' | 'caseLineName'>>;

type Kind = 'partner-staff' | 'analyst';

type PartnerStaffBody = ApiBody<'post', '/api/v1/partner-staff'>;
type AnalystBody = ApiBody<'post', '/api/v1/analysts'>;

const PARTNER_STAFF: MasterScreenSpec<Staff, PartnerStaffBody> = {
  title: 'Analis',
  addLabel: 'Tambah Staff',
  api: {
    path: '/api/v1/partner-staff',
    list: (page) => read('/api/v1/partner-staff', pageParams(page)),
    detail: (id) => read('/api/v1/partner-staff/{id}', withId(id)),
    save: (body, id) =>
      id === undefined
        ? api.POST('/api/v1/partner-staff', { body })
        : api.PUT('/api/v1/partner-staff/{id}', { ...withId(id), body }),
  },
  paged: true,
  columns: [{ header: 'Nama', cell: (r) => r.fullName }],
  titles: { add: 'Staff Baru', edit: 'Edit Staff', view: 'Lihat Staff' },
  saveConfirm: { title: 'Simpan Staff', message: 'Anda yakin ingin menyimpan staff ini ?' },
  remove: {
    title: 'Hapus Staff',
    message: 'Anda yakin ingin menghapus staff ini ?',
    call: (id) => api.DELETE('/api/v1/partner-staff/{id}', withId(id)),
  },
};

const ANALYSTS: MasterScreenSpec<Staff, AnalystBody> = {
  title: 'Analis',
  addLabel: 'Tambah Analis',
  api: {
    path: '/api/v1/analysts',
    list: (page) => read('/api/v1/analysts', pageParams(page)),
    detail: (id) => read('/api/v1/analysts/{id}', withId(id)),
    save: (body, id) =>
      id === undefined
        ? api.POST('/api/v1/analysts', { body })
        : api.PUT('/api/v1/analysts/{id}', { ...withId(id), body }),
  },
  paged: true,
  columns: [
    { header: 'Nama', cell: (r) => r.fullName },
    { header: 'Email', cell: (r) => r.email ?? '-' },
    { header: 'Jalur Otorisasi', cell: (r) => r.caseLineName ?? '-' },
    { header: 'Akses Level', cell: (r) => r.roleName ?? '-' },
  ],
  titles: { add: 'Analis Baru', edit: 'Edit Analis', view: 'Lihat Staff' },
  saveConfirm: { title: 'Simpan Staff', message: 'Anda yakin ingin menyimpan staff ini ?' },
  remove: {
    title: 'Hapus Analis',
    message: 'Anda yakin ingin menghapus analis ini ?',
    call: (id) => api.DELETE('/api/v1/analysts/{id}', withId(id)),
  },
};

/** /admin/partnerstaff (type 3): staff of the caller's partner. */
export function PartnerStaffPage() {
  return <MasterScreen spec={PARTNER_STAFF} Form={PartnerStaffForm} />;
}

/** /admin/supportagent (type 2): analysts of the caller's company. */
export function AnalystPage() {
  return <MasterScreen spec={ANALYSTS} Form={AnalystForm} />;
}

type Values = { fullName: string; username: string; email: string; roleId: number; caseLineId: number };

function PartnerStaffForm(props: MasterFormProps<Staff, PartnerStaffBody>) {
  return (
    <StaffForm
      kind="partner-staff"
      {...props}
      check={({ caseLineId: _none, ...values }) => validate(partnerStaffSchema, values)}
      resetPassword={(id) => api.POST('/api/v1/partner-staff/{id}/password-reset', withId(id))}
    />
  );
}

function AnalystForm(props: MasterFormProps<Staff, AnalystBody>) {
  return (
    <StaffForm
      kind="analyst"
      {...props}
      check={(values) => validate(analystSchema, values)}
      resetPassword={(id) => api.POST('/api/v1/analysts/{id}/password-reset', withId(id))}
    />
  );
}

function StaffForm<B>({
  kind,
  check,
  resetPassword: reset,
  ...props
}: MasterFormProps<Staff, B> & {
  kind: Kind;
  /** The form's values checked with the kind's shared schema. */
  check: (values: Values) => Validation<B>;
  resetPassword: (id: number) => Promise<{ message?: string }>;
}) {
  const { mode } = props;
  const { form, record, load, reload } = useMasterForm(props, {
    empty: { fullName: '', username: '', email: '', roleId: DEFAULT_ROLE_ID, caseLineId: 0 },
    toValues: (r): Values => ({
      fullName: r.fullName ?? '',
      username: r.username ?? '',
      email: r.email ?? '',
      roleId: r.roleId ?? DEFAULT_ROLE_ID,
      caseLineId: r.caseLineId ?? 0,
    }),
    validate: check,
    accountOf: (v) => v.username.trim(),
  });
  const confirm = useConfirm();
  const loading = useLoading();

  // Reset Password: partner staff in View mode, analysts in Edit mode; only once the initial password was changed.
  const resetAllowed =
    record !== null &&
    record.initialPassword === false &&
    (kind === 'partner-staff' ? mode.kind === 'view' : mode.kind === 'edit');
  const resetPassword = async () => {
    if (!record) return;
    const ok = await confirm({
      title: 'Reset Password',
      message: 'Anda yakin ingin mereset password pengguna ini ?',
      actionLabel: 'Oke',
    });
    if (!ok) return;
    loading.show();
    try {
      const reply = await reset(record.id);
      if (reply.message) notify.success(reply.message);
      await reload();
    } catch (error) {
      notify.problem(error);
    } finally {
      loading.hide();
    }
  };

  return (
    <MasterFormFrame
      form={form}
      screen={props}
      load={load}
      extra={
        <>
          {mode.kind === 'view' && (
            <ResetSecondFactorButton
              kind={kind === 'analyst' ? 'analysts' : 'partner-staff'}
              id={mode.row.id}
            />
          )}
          {resetAllowed && (
            <Button type="button" variant="outline" onClick={() => void resetPassword()}>
              Reset Password
            </Button>
          )}
        </>
      }
      aside={
        record?.initialPassword && record.password ? (
          <FormField label="Password" readOnly>
            <CopyablePassword password={record.password} label="Password" />
          </FormField>
        ) : undefined
      }
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        {/* Partner staff: the full name is fixed after creation too (spec section 4). */}
        <MasterTextField
          form={form}
          name="fullName"
          label="Nama Lengkap"
          maxLength={50}
          fixed={kind === 'partner-staff'}
        />
        <MasterTextField form={form} name="email" label="Alamat Email" type="email" maxLength={100} fixed />
        <MasterTextField form={form} name="username" label="Username" maxLength={50} fixed />
        <MasterSelectField
          form={form}
          name="roleId"
          label="Akses Level"
          placeholder="Pilih Akses Level"
          optional
          source={read('/api/v1/user-roles')}
          onPick={(roleId) => ({ roleId: roleId || DEFAULT_ROLE_ID })}
        />
        {kind === 'analyst' && (
          <MasterSelectField
            form={form}
            name="caseLineId"
            label="Jalur Otorisasi"
            placeholder="Pilih Jalur Otorisasi"
            source={read('/api/v1/case-lines')}
          />
        )}
      </SimpleGrid>
    </MasterFormFrame>
  );
}
