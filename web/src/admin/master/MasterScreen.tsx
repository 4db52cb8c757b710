import { type ComponentType, useState } from 'react';
import { useSWRConfig } from 'swr';
import { CreatedAccountDialog } from './InitialPassword.tsx';
import type { MasterFormProps } from './MasterForm.tsx';
import { MasterList } from './MasterList.tsx';
import type { FormMode, MasterScreenSpec } from './types.ts';

/**
 * One master screen (Partner, Perusahaan, Analis, Staff, Kategori Laporan): the list, and the form in
 * Add, View or Edit mode in its place; Kembali or a save returns to the list, which reloads.
 */
export function MasterScreen<T extends { id: number }, B>(props: {
  spec: MasterScreenSpec<T, B>;
  Form: ComponentType<MasterFormProps<T, B>>;
}) {
  const { spec, Form } = props;
  const [mode, setMode] = useState<FormMode<T> | null>(null);
  const [created, setCreated] = useState<{ account?: string; password: string } | null>(null);
  const { mutate } = useSWRConfig();
  const reload = () => mutate((key) => typeof key === 'string' && key.startsWith(spec.api.path));

  if (!mode) {
    return (
      <>
        <MasterList
          spec={spec}
          onOpen={(kind, row) => setMode(kind === 'add' || !row ? { kind: 'add' } : { kind, row })}
        />
        {created && (
          <CreatedAccountDialog
            account={created.account}
            password={created.password}
            onClose={() => setCreated(null)}
          />
        )}
      </>
    );
  }
  return (
    <Form
      key={mode.kind === 'add' ? 'add' : `${mode.kind}-${mode.row.id}`}
      spec={spec}
      mode={mode}
      onBack={() => setMode(null)}
      onEdit={(row) => setMode({ kind: 'edit', row })}
      onSaved={(reply, account) => {
        setMode(null);
        void reload();
        if (mode.kind === 'add' && reply.initialPassword)
          setCreated({ account, password: reply.initialPassword });
      }}
    />
  );
}
