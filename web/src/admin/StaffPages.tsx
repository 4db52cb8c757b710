import { Button, SimpleGrid } from '@chakra-ui/react';
import { analystSchema, DEFAULT_ROLE_ID, partnerStaffSchema } from '@wbs/shared';
import { api } from '../api/client.ts';
import type { MessageReply } from '../api/types.ts';
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
} from './master/MasterForm.tsx';
import { MasterScreen } from './master/MasterScreen.tsx';
import type { MasterScreenSpec } from './master/types.ts';

type Staff = {
  id: number;
  fullName: string;
  username: string | null;
  email: string | null;
  roleId: number | null;
  roleName: string | null;
  initialPassword: boolean;
  password: string | null;
  caseLineId?: number | null;
  caseLineName?: string | null;
};

type Kind = 'partner-staff' | 'analyst';

const SCREENS: Record<Kind, MasterScreenSpec<Staff>> = {
  'partner-staff': {
    title: 'Analis',
    addLabel: 'Tambah Staff',
    path: '/partner-staff',
    paged: true,
    columns: [{ header: 'Nama', cell: (r) => r.fullName }],
    titles: { add: 'Staff Baru', edit: 'Edit Staff', view: 'Lihat Staff' },
    saveConfirm: { title: 'Simpan Staff', message: 'Anda yakin ingin menyimpan staff ini ?' },
    remove: { title: 'Hapus Staff', message: 'Anda yakin ingin menghapus staff ini ?' },
  },
  analyst: {
    title: 'Analis',
    addLabel: 'Tambah Analis',
    path: '/analysts',
    paged: true,
    columns: [
      { header: 'Nama', cell: (r) => r.fullName },
      { header: 'Email', cell: (r) => r.email ?? '-' },
      { header: 'Jalur Otorisasi', cell: (r) => r.caseLineName ?? '-' },
      { header: 'Akses Level', cell: (r) => r.roleName ?? '-' },
    ],
    titles: { add: 'Analis Baru', edit: 'Edit Analis', view: 'Lihat Staff' },
    saveConfirm: { title: 'Simpan Staff', message: 'Anda yakin ingin menyimpan staff ini ?' },
    remove: { title: 'Hapus Analis', message: 'Anda yakin ingin menghapus analis ini ?' },
  },
};

/** /admin/partnerstaff (type 3): staff of the caller's partner. */
export function PartnerStaffPage() {
  return <MasterScreen spec={SCREENS['partner-staff']} Form={PartnerStaffForm} />;
}

/** /admin/supportagent (type 2): analysts of the caller's company. */
export function AnalystPage() {
  return <MasterScreen spec={SCREENS.analyst} Form={AnalystForm} />;
}

function PartnerStaffForm(props: MasterFormProps<Staff>) {
  return <StaffForm kind="partner-staff" {...props} />;
}

function AnalystForm(props: MasterFormProps<Staff>) {
  return <StaffForm kind="analyst" {...props} />;
}

type Values = { fullName: string; username: string; email: string; roleId: number; caseLineId: number };

function StaffForm({ kind, ...props }: MasterFormProps<Staff> & { kind: Kind }) {
  const { spec, mode } = props;
  const { form, record, load, reload } = useMasterForm(props, {
    empty: { fullName: '', username: '', email: '', roleId: DEFAULT_ROLE_ID, caseLineId: 0 },
    toValues: (r): Values => ({
      fullName: r.fullName ?? '',
      username: r.username ?? '',
      email: r.email ?? '',
      roleId: r.roleId ?? DEFAULT_ROLE_ID,
      caseLineId: r.caseLineId ?? 0,
    }),
    detail: true,
    validate: ({ caseLineId, ...values }) =>
      kind === 'analyst'
        ? validate(analystSchema, { ...values, caseLineId })
        : validate(partnerStaffSchema, values),
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
      const reply = await api<MessageReply | undefined>(`${spec.path}/${record.id}/password-reset`, {
        method: 'POST',
      });
      if (reply?.message) notify.success(reply.message);
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
        resetAllowed ? (
          <Button type="button" variant="outline" onClick={() => void resetPassword()}>
            Reset Password
          </Button>
        ) : undefined
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
          source="/user-roles"
          onPick={(roleId) => ({ roleId: roleId || DEFAULT_ROLE_ID })}
        />
        {kind === 'analyst' && (
          <MasterSelectField
            form={form}
            name="caseLineId"
            label="Jalur Otorisasi"
            placeholder="Pilih Jalur Otorisasi"
            source="/case-lines"
          />
        )}
      </SimpleGrid>
    </MasterFormFrame>
  );
}
