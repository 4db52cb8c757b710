import { Button, Input, SimpleGrid } from '@chakra-ui/react';
import { analystSchema, DEFAULT_ROLE_ID, partnerStaffSchema } from '@wbs/shared';
import { useEffect, useState } from 'react';
import useSWR from 'swr';
import { api } from '../api/client.ts';
import type { Items, MessageReply, Option } from '../api/types.ts';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { FormField } from '../ui/FormField.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { SelectInput } from '../ui/SelectInput.tsx';
import { notify } from '../ui/toaster.tsx';
import { type Errors, validate } from '../ui/validate.ts';
import { type FormMode, MasterFormFrame, MasterScreen } from './MasterScreen.tsx';
import { useSave } from './useSave.ts';

type Staff = {
  id: number;
  fullName: string;
  username: string;
  email: string | null;
  roleId: number | null;
  roleName: string | null;
  initialPassword: boolean;
  password: string | null;
  caseLineId?: number | null;
  caseLineName?: string | null;
};

type Kind = 'partner-staff' | 'analyst';

const TEXT = {
  'partner-staff': {
    title: 'Analis',
    path: '/partner-staff',
    add: 'Tambah Staff',
    titles: { add: 'Staff Baru', edit: 'Edit Staff', view: 'Lihat Staff' },
    confirm: { title: 'Simpan Staff', message: 'Anda yakin ingin menyimpan staff ini ?' },
    remove: { title: 'Hapus Staff', message: 'Anda yakin ingin menghapus staff ini ?' },
  },
  analyst: {
    title: 'Analis',
    path: '/analysts',
    add: 'Tambah Analis',
    titles: { add: 'Analis Baru', edit: 'Edit Analis', view: 'Lihat Staff' },
    confirm: { title: 'Simpan Staff', message: 'Anda yakin ingin menyimpan staff ini ?' },
    remove: { title: 'Hapus Analis', message: 'Anda yakin ingin menghapus analis ini ?' },
  },
} as const;

/** /admin/partnerstaff (type 3): staff of the caller's partner. */
export function PartnerStaffPage() {
  return (
    <MasterScreen<Staff>
      title={TEXT['partner-staff'].title}
      addLabel={TEXT['partner-staff'].add}
      path={TEXT['partner-staff'].path}
      columns={[{ header: 'Nama', cell: (r) => r.fullName }]}
      rowName={(r) => r.fullName}
      deleteTitle={TEXT['partner-staff'].remove.title}
      deleteMessage={TEXT['partner-staff'].remove.message}
      renderForm={(mode, done, switchTo) => (
        <StaffForm kind="partner-staff" mode={mode} done={done} switchTo={switchTo} />
      )}
    />
  );
}

/** /admin/supportagent (type 2): analysts of the caller's company. */
export function AnalystPage() {
  return (
    <MasterScreen<Staff>
      title={TEXT.analyst.title}
      addLabel={TEXT.analyst.add}
      path={TEXT.analyst.path}
      columns={[
        { header: 'Nama', cell: (r) => r.fullName },
        { header: 'Email', cell: (r) => r.email ?? '-' },
        { header: 'Jalur Otorisasi', cell: (r) => r.caseLineName ?? '-' },
        { header: 'Akses Level', cell: (r) => r.roleName ?? '-' },
      ]}
      rowName={(r) => r.fullName}
      deleteTitle={TEXT.analyst.remove.title}
      deleteMessage={TEXT.analyst.remove.message}
      renderForm={(mode, done, switchTo) => (
        <StaffForm kind="analyst" mode={mode} done={done} switchTo={switchTo} />
      )}
    />
  );
}

type Values = { fullName: string; username: string; email: string; roleId: number; caseLineId: number };

function StaffForm(props: {
  kind: Kind;
  mode: FormMode;
  done: (saved: boolean) => void;
  switchTo: (mode: FormMode) => void;
}) {
  const { kind, mode } = props;
  const text = TEXT[kind];
  const id = mode.kind === 'add' ? null : mode.id;
  const record = useSWR<Staff>(id ? `${text.path}/${id}` : null);
  const roles = useSWR<Items<Option>>('/user-roles');
  const lines = useSWR<Items<Option>>(kind === 'analyst' ? '/case-lines' : null);
  const [values, setValues] = useState<Values>({
    fullName: '',
    username: '',
    email: '',
    roleId: DEFAULT_ROLE_ID,
    caseLineId: 0,
  });
  const [errors, setErrors] = useState<Errors>({});
  const { save, serverErrors } = useSave();
  const confirm = useConfirm();
  const loading = useLoading();
  const readOnly = mode.kind === 'view';
  const locked = mode.kind !== 'add';

  useEffect(() => {
    const r = record.data;
    if (!r) return;
    setValues({
      fullName: r.fullName ?? '',
      username: r.username ?? '',
      email: r.email ?? '',
      roleId: r.roleId ?? DEFAULT_ROLE_ID,
      caseLineId: r.caseLineId ?? 0,
    });
  }, [record.data]);

  if (id && !record.data) return <PageSpinner />;
  const set = (patch: Partial<Values>) => setValues((v) => ({ ...v, ...patch }));
  const shown = { ...serverErrors, ...errors };

  const submit = async () => {
    const { caseLineId, ...base } = values;
    const result =
      kind === 'analyst'
        ? validate(analystSchema, { ...base, caseLineId })
        : validate(partnerStaffSchema, base);
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

  // Reset Password: partner staff in View mode, analysts in Edit mode; only once the initial password was changed.
  const resetAllowed =
    id !== null &&
    record.data?.initialPassword === false &&
    (kind === 'partner-staff' ? mode.kind === 'view' : mode.kind === 'edit');
  const resetPassword = async () => {
    if (!id) return;
    const ok = await confirm({
      title: 'Reset Password',
      message: 'Anda yakin ingin mereset password pengguna ini ?',
      actionLabel: 'Oke',
    });
    if (!ok) return;
    loading.show();
    try {
      const reply = await api<MessageReply | undefined>(`${text.path}/${id}/password-reset`, {
        method: 'POST',
      });
      if (reply?.message) notify.success(reply.message);
      await record.mutate();
    } catch (error) {
      notify.problem(error);
    } finally {
      loading.hide();
    }
  };

  return (
    <MasterFormFrame
      title={text.titles[mode.kind]}
      readOnly={readOnly}
      onBack={() => props.done(false)}
      onEdit={id ? () => props.switchTo({ kind: 'edit', id }) : undefined}
      onSubmit={() => void submit()}
      extra={
        resetAllowed ? (
          <Button type="button" variant="outline" onClick={() => void resetPassword()}>
            Reset Password
          </Button>
        ) : undefined
      }
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField label="Nama Lengkap" error={shown.fullName} required={!readOnly}>
          <Input
            name="fullName"
            value={values.fullName}
            maxLength={50}
            readOnly={readOnly || (locked && kind === 'partner-staff')}
            onChange={(e) => set({ fullName: e.target.value })}
          />
        </FormField>
        <FormField label="Alamat Email" error={shown.email} required={!readOnly}>
          <Input
            name="email"
            type="email"
            value={values.email}
            maxLength={100}
            readOnly={readOnly || locked}
            onChange={(e) => set({ email: e.target.value })}
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
        {record.data?.initialPassword && record.data.password && (
          <FormField label="Password" readOnly>
            <Input name="password" value={record.data.password} readOnly />
          </FormField>
        )}
        <FormField label="Akses Level" error={shown.roleId}>
          <SelectInput
            name="roleId"
            value={values.roleId}
            options={roles.data?.items ?? []}
            disabled={readOnly}
            placeholder="Pilih Akses Level"
            onChange={(roleId) => set({ roleId: roleId || DEFAULT_ROLE_ID })}
          />
        </FormField>
        {kind === 'analyst' && (
          <FormField label="Jalur Otorisasi" error={shown.caseLineId} required={!readOnly}>
            <SelectInput
              name="caseLineId"
              value={values.caseLineId}
              options={lines.data?.items ?? []}
              disabled={readOnly}
              placeholder="Pilih Jalur Otorisasi"
              onChange={(caseLineId) => set({ caseLineId })}
            />
          </FormField>
        )}
      </SimpleGrid>
    </MasterFormFrame>
  );
}
