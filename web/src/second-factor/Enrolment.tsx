import { Box, Button, HStack, Image, Input, Stack, Text } from '@chakra-ui/react';
import { PASSKEY_NAME_MAX, passkeyRenameRequest, totpConfirmRequest } from '@wbs/shared/api/second-factor';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client.ts';
import { FormField } from '../ui/FormField.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import { validate } from '../ui/validate.ts';
import {
  addPasskey,
  confirmTotp,
  type FactorAddedReply,
  passkeyRegistrationOptions,
  startTotp,
  type TotpEnrolmentReply,
} from './calls.ts';
import { PasskeyError, passkeyRegistration } from './passkey.ts';
import { SECOND_FACTOR_TEXTS as T } from './texts.ts';

/**
 * What a refused enrolment step says under its field: a wrong code, an enrolment that expired, a
 * name refused, too many tries. Other failures are snackbars (or, for an ended session, AuthBridge's).
 */
function fieldRefusal(error: unknown, field: string): string | null {
  if (!(error instanceof ApiError) || error.handled) return null;
  if (error.fieldErrors[field]) return error.fieldErrors[field];
  if (error.status === 400 || error.status === 409 || error.status === 410 || error.status === 429) {
    return error.messages.join(' ');
  }
  return null;
}

/** The QR code the gateway drew, as an image (CSP: data: images only; no request leaves). */
export function svgDataUrl(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/**
 * Aplikasi autentikator: the gateway makes a secret (QR code and the key as text), the user's app
 * shows a code, the code confirms the secret. `onAdded` gets the reply (with recovery codes when the
 * account had none).
 */
export function TotpEnrolment(props: { onAdded: (reply: FactorAddedReply) => void; actions?: ReactNode }) {
  const [secret, setSecret] = useState<TotpEnrolmentReply | null>(null);
  const [failed, setFailed] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const requested = useRef(false);

  const start = async () => {
    setFailed(false);
    try {
      setSecret(await startTotp());
    } catch (caught) {
      setFailed(true);
      notify.problem(caught);
    }
  };
  // One secret per visit: a second request would replace the secret the QR code shows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, when the form appears
  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    void start();
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checked = validate(totpConfirmRequest, { code });
    if (!checked.ok) return setError(checked.errors.code);
    setError(undefined);
    setBusy(true);
    try {
      props.onAdded(await confirmTotp(checked.value.code));
      notify.success(T.totpAdded);
    } catch (caught) {
      const refusal = fieldRefusal(caught, 'code');
      if (refusal) setError(refusal);
      else notify.problem(caught);
    } finally {
      setBusy(false);
    }
  }

  if (failed) {
    return (
      <Stack gap="3" align="flex-start">
        <Text>{T.loadFailed}</Text>
        <HStack gap="2" wrap="wrap">
          <Button variant="outline" onClick={() => void start()}>
            {T.retry}
          </Button>
          {props.actions}
        </HStack>
      </Stack>
    );
  }
  if (!secret) return <PageSpinner />;
  return (
    <form onSubmit={submit} noValidate aria-label={T.totpChoice}>
      <Stack gap="4">
        <Text>{T.totpScan}</Text>
        <Box alignSelf="center" bg="white" p="2" borderWidth="1px" rounded="md">
          <Image src={svgDataUrl(secret.qrSvg)} alt={T.totpQrAlt} width="200px" height="200px" />
        </Box>
        <FormField label={T.totpSecretLabel} helper={T.totpManual}>
          <Input
            name="totpSecret"
            value={secret.secret}
            readOnly
            fontFamily="mono"
            autoComplete="off"
            onFocus={(e) => e.currentTarget.select()}
          />
        </FormField>
        <FormField label={T.totpLabel} error={error} helper={T.totpConfirmHelp}>
          <Input
            name="code"
            value={code}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={12}
            fontFamily="mono"
            onChange={(e) => {
              setCode(e.target.value);
              setError(undefined);
            }}
          />
        </FormField>
        <HStack gap="2" justify="flex-end" wrap="wrap">
          {props.actions}
          <Button type="submit" loading={busy} disabled={busy}>
            {T.totpConfirm}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

/**
 * Passkey: a name to tell it apart later, then the browser creates the passkey with the gateway's
 * options and the gateway keeps its public key.
 */
export function PasskeyEnrolment(props: { onAdded: (reply: FactorAddedReply) => void; actions?: ReactNode }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checked = validate(passkeyRenameRequest, { name });
    if (!checked.ok) return setError(checked.errors.name);
    setError(undefined);
    setBusy(true);
    try {
      const { options } = await passkeyRegistrationOptions();
      const response = await passkeyRegistration(options);
      props.onAdded(await addPasskey(checked.value.name, response));
      notify.success(T.passkeyAdded);
    } catch (caught) {
      const refusal = caught instanceof PasskeyError ? caught.message : fieldRefusal(caught, 'name');
      if (refusal) setError(refusal);
      else notify.problem(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label={T.passkeyChoice}>
      <Stack gap="4">
        <FormField label={T.passkeyNameLabel} error={error} helper={T.passkeyNameHelp}>
          <Input
            name="passkeyName"
            value={name}
            maxLength={PASSKEY_NAME_MAX + 10}
            autoComplete="off"
            onChange={(e) => {
              setName(e.target.value);
              setError(undefined);
            }}
          />
        </FormField>
        <HStack gap="2" justify="flex-end" wrap="wrap">
          {props.actions}
          <Button type="submit" loading={busy} disabled={busy}>
            {T.passkeyRegister}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
