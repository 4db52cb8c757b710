/**
 * Keamanan Akun (every signed-in user): the account's second factors. Adding a factor when one
 * exists, removing one and new recovery codes want a recent factor: the client's step-up prompt asks
 * for it on its own. Removing the last factor of a type that must have one is refused by the
 * gateway (409), whose message is shown.
 */
import {
  Alert,
  Badge,
  Box,
  Button,
  Dialog,
  Flex,
  Heading,
  HStack,
  Input,
  Portal,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { PASSKEY_NAME_MAX, passkeyRenameRequest } from '@wbs/shared/api/second-factor';
import { format } from '@wbs/shared/messages';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ApiError } from '../api/client.ts';
import { useSession } from '../api/session.ts';
import { useApi } from '../api/useApi.ts';
import { formatDateTime } from '../case/detail.ts';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { FormField } from '../ui/FormField.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import { validate } from '../ui/validate.ts';
import {
  type FactorAddedReply,
  newRecoveryCodes,
  type OwnSecondFactorsReply,
  ownFactors,
  type PasskeyItem,
  removePasskey,
  removeTotp,
  renamePasskey,
  type SecondFactorState,
} from './calls.ts';
import { PasskeyEnrolment, TotpEnrolment } from './Enrolment.tsx';
import { passkeysSupported } from './passkey.ts';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { SECOND_FACTOR_TEXTS as T } from './texts.ts';

/** Fewer codes left than this: the page suggests a new set. */
const FEW_RECOVERY_CODES = 3;

const when = (wallTime: string) => `${formatDateTime(wallTime)} WIB`;

type Adding = 'totp' | 'passkey' | null;

export default function SecurityPage() {
  const { data, error, isLoading, mutate } = useApi(ownFactors());
  const { session, mutate: mutateSession } = useSession();
  const confirm = useConfirm();
  const loading = useLoading();
  const [adding, setAdding] = useState<Adding>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [renaming, setRenaming] = useState<PasskeyItem | null>(null);

  /** The session's copy of the state follows every change (the step-up prompt reads its methods). */
  const keep = async (state: SecondFactorState) => {
    if (session) await mutateSession({ ...session, secondFactor: state }, { revalidate: false });
    await mutate();
  };

  /** Runs a change behind the overlay; a refusal (409 last factor…) is the gateway's message. */
  const run = async (change: () => Promise<void>) => {
    loading.show();
    try {
      await change();
    } catch (caught) {
      notify.problem(caught);
    } finally {
      loading.hide();
    }
  };

  const added = async (reply: FactorAddedReply) => {
    setAdding(null);
    if (reply.recoveryCodes?.length) setCodes(reply.recoveryCodes);
    await keep(reply.secondFactor);
  };

  const deleteTotp = async () => {
    if (!(await confirm({ title: T.totpRemove, message: T.totpRemoveConfirm, actionLabel: 'Hapus' }))) return;
    await run(async () => {
      const reply = await removeTotp();
      notify.success(T.totpRemoved);
      await keep(reply.secondFactor);
    });
  };

  const deletePasskey = async (passkey: PasskeyItem) => {
    const message = format(T.passkeyRemoveConfirm, { name: passkey.name });
    if (!(await confirm({ title: T.passkeyRemoveTitle, message, actionLabel: 'Hapus' }))) return;
    await run(async () => {
      const reply = await removePasskey(passkey.id);
      notify.success(T.passkeyRemoved);
      await keep(reply.secondFactor);
    });
  };

  const renewCodes = async () => {
    if (!(await confirm({ title: T.recoveryNew, message: T.recoveryNewConfirm, actionLabel: 'Oke' }))) return;
    await run(async () => {
      const reply = await newRecoveryCodes();
      setCodes(reply.recoveryCodes);
      notify.success(T.recoveryNewDone);
      await keep(reply.secondFactor);
    });
  };

  const cancelAdd = (
    <Button type="button" variant="outline" onClick={() => setAdding(null)}>
      {T.cancel}
    </Button>
  );

  return (
    <Stack gap="5" maxW="4xl">
      <Heading as="h1" size="2xl">
        {T.securityTitle}
      </Heading>
      <Text color="fg.muted">{T.securityIntro}</Text>
      {isLoading && <PageSpinner />}
      {!isLoading && !data && error !== undefined && (
        <Stack gap="3" align="flex-start">
          <Text>{T.loadFailed}</Text>
          <Button size="sm" variant="outline" onClick={() => void mutate()}>
            {T.retry}
          </Button>
        </Stack>
      )}
      {data && (
        <>
          <StatusSection state={data.secondFactor} />
          <Section title={T.totpHeading}>
            {adding === 'totp' ? (
              <TotpEnrolment onAdded={(reply) => void added(reply)} actions={cancelAdd} />
            ) : (
              <TotpSection
                totp={data.totp}
                onAdd={() => setAdding('totp')}
                onRemove={() => void deleteTotp()}
                busy={adding !== null}
              />
            )}
          </Section>
          <Section title={T.passkeysHeading}>
            <PasskeyTable
              passkeys={data.passkeys}
              onRename={setRenaming}
              onRemove={(passkey) => void deletePasskey(passkey)}
            />
            {adding === 'passkey' ? (
              <Box mt="4">
                <PasskeyEnrolment onAdded={(reply) => void added(reply)} actions={cancelAdd} />
              </Box>
            ) : (
              passkeysSupported() && (
                <Button
                  mt="4"
                  variant="outline"
                  disabled={adding !== null}
                  onClick={() => setAdding('passkey')}
                >
                  {T.passkeyAdd}
                </Button>
              )
            )}
          </Section>
          <Section title={T.recoveryHeading}>
            <RecoverySection
              data={data}
              codes={codes}
              onNew={() => void renewCodes()}
              onDone={() => setCodes(null)}
            />
          </Section>
        </>
      )}
      {renaming && (
        <RenameDialog
          passkey={renaming}
          onClose={() => setRenaming(null)}
          onRenamed={async () => {
            setRenaming(null);
            notify.success(T.passkeyRenamed);
            await mutate();
          }}
        />
      )}
    </Stack>
  );
}

function Section(props: { title: string; children: ReactNode }) {
  return (
    <Box
      as="section"
      bg="bg.panel"
      borderWidth="1px"
      rounded="xl"
      p={{ base: '4', md: '6' }}
      aria-label={props.title}
    >
      <Heading as="h2" size="lg" mb="3">
        {props.title}
      </Heading>
      {props.children}
    </Box>
  );
}

function StatusSection({ state }: { state: SecondFactorState }) {
  const on = state.methods.length > 0;
  return (
    <Section title={T.statusHeading}>
      <Stack gap="2">
        <HStack gap="2">
          <Badge colorPalette={on ? 'green' : 'orange'} size="lg">
            {on ? T.statusOn : T.statusOff}
          </Badge>
        </HStack>
        <Text color="fg.muted">{state.required ? T.statusRequired : T.statusOptional}</Text>
      </Stack>
    </Section>
  );
}

function TotpSection(props: {
  totp: OwnSecondFactorsReply['totp'];
  onAdd: () => void;
  onRemove: () => void;
  busy: boolean;
}) {
  if (!props.totp) {
    return (
      <Stack gap="3" align="flex-start">
        <Text>{T.totpNone}</Text>
        <Button variant="outline" disabled={props.busy} onClick={props.onAdd}>
          {T.totpAdd}
        </Button>
      </Stack>
    );
  }
  return (
    <Flex gap="3" align="center" justify="space-between" wrap="wrap">
      <Text>{format(T.totpActiveSince, { date: when(props.totp.createdAt) })}</Text>
      <Button variant="outline" colorPalette="red" disabled={props.busy} onClick={props.onRemove}>
        {T.totpRemove}
      </Button>
    </Flex>
  );
}

function PasskeyTable(props: {
  passkeys: PasskeyItem[];
  onRename: (passkey: PasskeyItem) => void;
  onRemove: (passkey: PasskeyItem) => void;
}) {
  if (props.passkeys.length === 0) return <Text>{T.passkeysNone}</Text>;
  return (
    <Box overflowX="auto">
      <Table.Root size="sm" aria-label={T.passkeysHeading}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{T.passkeyName}</Table.ColumnHeader>
            <Table.ColumnHeader>{T.passkeyCreated}</Table.ColumnHeader>
            <Table.ColumnHeader>{T.passkeyLastUsed}</Table.ColumnHeader>
            <Table.ColumnHeader>{T.passkeyActions}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {props.passkeys.map((passkey) => (
            <Table.Row key={passkey.id}>
              <Table.Cell>{passkey.name}</Table.Cell>
              <Table.Cell>{when(passkey.createdAt)}</Table.Cell>
              <Table.Cell>{passkey.lastUsedAt ? when(passkey.lastUsedAt) : T.passkeyNeverUsed}</Table.Cell>
              <Table.Cell>
                <HStack gap="2">
                  <Button
                    size="xs"
                    variant="outline"
                    aria-label={`${T.passkeyRename} ${passkey.name}`}
                    onClick={() => props.onRename(passkey)}
                  >
                    {T.passkeyRename}
                  </Button>
                  <Button
                    size="xs"
                    variant="outline"
                    colorPalette="red"
                    aria-label={`${T.passkeyRemove} ${passkey.name}`}
                    onClick={() => props.onRemove(passkey)}
                  >
                    {T.passkeyRemove}
                  </Button>
                </HStack>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Box>
  );
}

function RecoverySection(props: {
  data: OwnSecondFactorsReply;
  codes: string[] | null;
  onNew: () => void;
  onDone: () => void;
}) {
  if (props.codes) return <RecoveryCodes codes={props.codes} doneLabel={T.close} onDone={props.onDone} />;
  const { methods, recoveryCodesLeft } = props.data.secondFactor;
  if (methods.length === 0) return <Text>{T.recoveryNeedsFactor}</Text>;
  return (
    <Stack gap="3" align="flex-start">
      <Text>{format(T.recoveryLeft, { count: recoveryCodesLeft })}</Text>
      {recoveryCodesLeft < FEW_RECOVERY_CODES && (
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Description>{T.recoveryLow}</Alert.Description>
        </Alert.Root>
      )}
      <Button variant="outline" onClick={props.onNew}>
        {T.recoveryNew}
      </Button>
    </Stack>
  );
}

/** Ubah Nama of a passkey: the name under the same rules as at its registration. */
function RenameDialog(props: { passkey: PasskeyItem; onClose: () => void; onRenamed: () => Promise<void> }) {
  const [name, setName] = useState(props.passkey.name);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(passkeyRenameRequest, { name });
    if (!checked.ok) return setError(checked.errors.name);
    setBusy(true);
    try {
      await renamePasskey(props.passkey.id, checked.value.name);
      await props.onRenamed();
    } catch (caught) {
      if (caught instanceof ApiError && caught.fieldErrors.name) setError(caught.fieldErrors.name);
      else notify.problem(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root
      open
      placement="center"
      onOpenChange={(e) => {
        if (!e.open) props.onClose();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4" asChild>
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{T.passkeyRenameTitle}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <FormField label={T.passkeyNameLabel} error={error}>
                  <Input
                    name="passkeyName"
                    value={name}
                    maxLength={PASSKEY_NAME_MAX + 10}
                    onChange={(e) => {
                      setName(e.target.value);
                      setError(undefined);
                    }}
                  />
                </FormField>
              </Dialog.Body>
              <Dialog.Footer>
                <Button type="button" variant="outline" onClick={props.onClose} disabled={busy}>
                  {T.cancel}
                </Button>
                <Button type="submit" loading={busy}>
                  {T.save}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
