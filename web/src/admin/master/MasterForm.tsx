import { Box, Button, Flex, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError, type Query } from '../../api/client.ts';
import { useApi } from '../../api/useApi.ts';
import { useConfirm } from '../../ui/ConfirmDialog.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { useLoading } from '../../ui/LoadingOverlay.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { SelectInput, type SelectOption } from '../../ui/SelectInput.tsx';
import { notify } from '../../ui/toaster.tsx';
import { useFormErrors } from '../../ui/useFormErrors.ts';
import type { Errors } from '../../ui/validate.ts';
import type { FormMode, MasterScreenSpec, SavedReply } from './types.ts';

const messageOf = (error: unknown) =>
  error instanceof ApiError && error.status !== 404 ? error.messages.join(' ') : UI_MESSAGES.notFoundData;

/** What a screen's form gets from the scaffold (MasterScreen). */
export type MasterFormProps<T, B> = {
  spec: MasterScreenSpec<T, B>;
  mode: FormMode<T>;
  onBack: () => void;
  onEdit: (row: T) => void;
  /** After a successful save; `account` names the sign-in account a creation made. */
  onSaved: (reply: SavedReply, account?: string) => void;
};

/** Whether the record of a View/Edit form is there; if it could not be read, why (gone, server down). */
export type MasterLoad = { ready: boolean; error?: unknown; retry: () => void };

/** A form's values checked with its shared schema: the body of the save, or the field errors. */
export type Validation<B> = { ok: true; value: B } | { ok: false; errors: Errors };

export type MasterForm<V> = {
  kind: 'add' | 'view' | 'edit';
  values: V;
  errors: Errors;
  /** View: nothing can change and nothing can be saved. */
  readOnly: boolean;
  /** Edit or View: the fields fixed at creation (username, e-mail…) stay as they are. */
  locked: boolean;
  set: (patch: Partial<V>) => void;
  submit: () => Promise<void>;
};

/**
 * State and save flow of one master form (spec section 4): values from the record, validation with
 * the shared schema, then confirm → call → success message → back to the list. A server field error
 * goes under its field (useFormErrors); a View form ignores every change.
 */
export function useMasterForm<T extends { id: number }, V, B>(
  props: MasterFormProps<T, B>,
  options: {
    empty: V;
    toValues: (record: T) => V;
    validate: (values: V) => Validation<B>;
    /** The account name shown with a new account's initial password. */
    accountOf?: (values: V) => string;
  },
): {
  form: MasterForm<V>;
  record: T | null;
  load: MasterLoad;
  reload: () => Promise<unknown>;
} {
  const { spec, mode } = props;
  const row = mode.kind === 'add' ? null : mode.row;
  const detail = useApi(row && spec.api.detail ? spec.api.detail(row.id) : null);
  const record = spec.api.detail ? (detail.data ?? null) : row;
  const [values, setValues] = useState<V>(() => (record ? options.toValues(record) : options.empty));
  const { errors, setErrors, showServer, clearField } = useFormErrors();
  const confirm = useConfirm();
  const loading = useLoading();
  const readOnly = mode.kind === 'view';

  // Fill once when the record arrives; later revalidations (focus, a password reset) refresh a View
  // but never overwrite what is being typed in Edit.
  const filled = useRef(record !== null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refill only when another record arrives
  useEffect(() => {
    if (!record || (filled.current && !readOnly)) return;
    filled.current = true;
    setValues(options.toValues(record));
  }, [record]);

  const set = (patch: Partial<V>) => {
    if (readOnly) return;
    setValues((current) => ({ ...current, ...patch }));
    for (const field of Object.keys(patch as object)) clearField(field);
  };

  const submit = async () => {
    if (readOnly) return;
    const result = options.validate(values);
    setErrors(result.ok ? {} : result.errors);
    if (!result.ok) return;
    if (!(await confirm({ ...spec.saveConfirm, actionLabel: 'Simpan' }))) return;
    loading.show();
    try {
      const reply = await spec.api.save(result.value, row?.id);
      if (reply.message) notify.success(reply.message);
      props.onSaved(reply, options.accountOf?.(values));
    } catch (error) {
      showServer(error);
      notify.problem(error);
    } finally {
      loading.hide();
    }
  };

  return {
    form: { kind: mode.kind, values, errors, readOnly, locked: mode.kind !== 'add', set, submit },
    record,
    load: {
      ready: !row || record !== null,
      error: record === null ? detail.error : undefined,
      retry: () => void detail.mutate(),
    },
    reload: () => detail.mutate(),
  };
}

/**
 * Frame of every master form: title, card, fields and Kembali / Ubah / Simpan. View wraps the fields
 * in a disabled fieldset and has no submit button at all. The form is keyed by its mode, and Ubah and
 * Simpan are different elements: before, one <button> was reused and turned from type=button into
 * type=submit while the Ubah click (or Enter/Space) was still being handled, so the browser went on
 * to submit the freshly opened Edit form and its save confirmation opened.
 */
export function MasterFormFrame<T, V, B>(props: {
  form: MasterForm<V>;
  /** The screen's form props: title by mode, Kembali, and Ubah (View only). */
  screen: MasterFormProps<T, B>;
  load: MasterLoad;
  /** Buttons before Kembali (Reset Password). */
  extra?: ReactNode;
  /** Read-only content outside the disabled fieldset (the initial password with its copy button). */
  aside?: ReactNode;
  children: ReactNode;
}) {
  const { form } = props;
  const { spec, mode, onBack, onEdit } = props.screen;
  const title = spec.titles[mode.kind];
  if (props.load.error) {
    return (
      <Stack gap="4" maxW="3xl">
        <Heading as="h1" size="2xl">
          {title}
        </Heading>
        <Text role="alert">{messageOf(props.load.error)}</Text>
        <Flex gap="2">
          <Button variant="outline" onClick={onBack}>
            Kembali
          </Button>
          <Button onClick={props.load.retry}>Coba Lagi</Button>
        </Flex>
      </Stack>
    );
  }
  if (!props.load.ready) return <PageSpinner />;
  return (
    <Stack gap="5" maxW="3xl">
      <Heading as="h1" size="2xl">
        {title}
      </Heading>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '4', md: '6' }}>
        <form
          key={form.kind}
          noValidate
          aria-label={title}
          onSubmit={(event) => {
            event.preventDefault();
            if (!form.readOnly) void form.submit();
          }}
        >
          <Stack gap="4">
            <fieldset disabled={form.readOnly} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
              {props.children}
            </fieldset>
            {props.aside}
            <Flex gap="2" justify="flex-end" wrap="wrap">
              {props.extra}
              <Button key="back" variant="outline" type="button" onClick={onBack}>
                Kembali
              </Button>
              {mode.kind === 'view' ? (
                <Button key="edit" type="button" onClick={() => onEdit(mode.row)}>
                  Ubah
                </Button>
              ) : (
                <Button key="save" type="submit">
                  Simpan
                </Button>
              )}
            </Flex>
          </Stack>
        </form>
      </Box>
    </Stack>
  );
}

type FieldName<V> = Extract<keyof V, string>;

/** A text field of a master form; `fixed` fields cannot change after creation (Edit locks them). */
export function MasterTextField<V>(props: {
  form: MasterForm<V>;
  name: FieldName<V>;
  label: string;
  maxLength: number;
  type?: 'text' | 'email';
  inputMode?: 'numeric' | 'text';
  fixed?: boolean;
  optional?: boolean;
}) {
  const { form } = props;
  const readOnly = form.readOnly || (Boolean(props.fixed) && form.locked);
  return (
    <FormField
      label={props.label}
      error={form.errors[props.name]}
      required={!readOnly && !props.optional}
      readOnly={readOnly}
    >
      <Input
        name={props.name}
        type={props.type ?? 'text'}
        inputMode={props.inputMode}
        value={String(form.values[props.name] ?? '')}
        maxLength={props.maxLength}
        readOnly={readOnly}
        onChange={(e) => form.set({ [props.name]: e.target.value } as Partial<V>)}
      />
    </FormField>
  );
}

/**
 * A select of a master form (numeric ids, 0 = nothing chosen); disabled in View. Its options come
 * from `source` (a GET answering `{ items }`; null while it cannot be loaded yet) or `options`.
 */
export function MasterSelectField<V>(props: {
  form: MasterForm<V>;
  name: FieldName<V>;
  label: string;
  placeholder: string;
  source?: Query<{ items: SelectOption[] }> | null;
  options?: readonly SelectOption[];
  optional?: boolean;
  disabled?: boolean;
  /** What choosing `id` changes (default: the field itself), e.g. a province also clears the city. */
  onPick?: (id: number) => Partial<V>;
}) {
  const { form } = props;
  const loaded = useApi(props.source ?? null);
  const disabled = form.readOnly || Boolean(props.disabled);
  return (
    <FormField
      label={props.label}
      error={form.errors[props.name]}
      required={!form.readOnly && !props.optional}
      disabled={disabled}
    >
      <SelectInput
        name={props.name}
        value={Number(form.values[props.name] ?? 0)}
        options={props.options ?? loaded.data?.items ?? []}
        disabled={disabled}
        loading={loaded.isLoading}
        placeholder={props.placeholder}
        onChange={(id) => form.set(props.onPick ? props.onPick(id) : ({ [props.name]: id } as Partial<V>))}
      />
    </FormField>
  );
}
