import { Button, Input, Stack, Text } from '@chakra-ui/react';
import { secondFactorVerifyRequest } from '@wbs/shared/api/second-factor';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useEndSession } from '../api/auth.ts';
import { ApiError } from '../api/client.ts';
import { FormField } from '../ui/FormField.tsx';
import { notify } from '../ui/toaster.tsx';
import { validate } from '../ui/validate.ts';
import { passkeyChallenge, type SecondFactorState, type VerifyBody, verifySecondFactor } from './calls.ts';
import { PasskeyError, passkeyAssertion } from './passkey.ts';
import { SECOND_FACTOR_TEXTS as T } from './texts.ts';

type Method = 'totp' | 'passkey';
type Mode = 'totp' | 'recovery' | 'passkey';

/**
 * What the gateway's refusal says, for the field that caused it: a wrong or replayed code
 * (`second-factor-failed`), too many tries with the time to wait (`rate-limited`), a malformed
 * code (`validation`). Anything else (the gateway unreachable…) is a snackbar; a session that
 * ended is announced by AuthBridge.
 */
export function refusalOf(error: unknown, field = 'code'): string | null {
  if (!(error instanceof ApiError) || error.handled) return null;
  if (error.type === 'second-factor-failed' || error.type === 'rate-limited') return error.messages.join(' ');
  return error.fieldErrors[field] ?? error.fieldErrors.response ?? null;
}

/**
 * Too many wrong codes in a row (`second-factor-locked`): the gateway ended the session, so the step
 * is over and only a new sign-in with the password opens another. The message to show, or null.
 */
function lockedBy(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.type !== 'second-factor-locked') return null;
  return error.messages.join(' ');
}

/**
 * The second factor asked for, by any of the account's methods: its authenticator code, its passkey,
 * or one of its recovery codes. Used by the sign-in's second step and by the step-up prompt;
 * `onVerified` gets the session's new second-factor state.
 */
export function FactorPrompt(props: {
  methods: readonly Method[];
  onVerified: (state: SecondFactorState) => void | Promise<void>;
  /** Why the factor is asked for, before how to give it (the step-up's reason). */
  intro?: string;
  /** Buttons after the prompt's own (Batal). */
  footer?: ReactNode;
  /** Called before the user leaves for the sign-in page once the step was closed (too many wrong codes). */
  onSignInAgain?: () => void;
}) {
  const hasTotp = props.methods.includes('totp');
  const hasPasskey = props.methods.includes('passkey');
  const [mode, setMode] = useState<Mode>(hasTotp || !hasPasskey ? 'totp' : 'passkey');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'code' | 'passkey' | null>(null);
  const [locked, setLocked] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const passkeyErrorId = useId();
  const endSession = useEndSession();
  const [, navigate] = useLocation();

  // The field of the chosen way takes the focus (a switch by keyboard lands in it).
  const focusNext = useRef(false);
  const inputRef = (element: HTMLInputElement | null) => {
    input.current = element;
    if (element && focusNext.current) {
      focusNext.current = false;
      element.focus();
    }
  };

  const choose = (next: Mode) => {
    focusNext.current = true;
    setMode(next);
    setCode('');
    setError(null);
    setPasskeyError(null);
  };

  async function send(body: VerifyBody) {
    const reply = await verifySecondFactor(body);
    await props.onVerified(reply.secondFactor);
  }

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const checked = validate(secondFactorVerifyRequest, {
      method: mode === 'recovery' ? 'recovery' : 'totp',
      code,
    });
    if (!checked.ok) {
      setError(checked.errors.code ?? Object.values(checked.errors)[0] ?? null);
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy('code');
    try {
      await send(checked.value as VerifyBody);
    } catch (caught) {
      const closed = lockedBy(caught);
      const refusal = refusalOf(caught);
      if (closed) setLocked(closed);
      else if (refusal) {
        setError(refusal);
        setCode('');
        input.current?.focus();
      } else notify.problem(caught);
    } finally {
      setBusy(null);
    }
  }

  async function signWithPasskey() {
    if (busy) return;
    setPasskeyError(null);
    setBusy('passkey');
    try {
      const { options } = await passkeyChallenge();
      await send({ method: 'passkey', response: await passkeyAssertion(options) });
    } catch (caught) {
      const closed = lockedBy(caught);
      const refusal = caught instanceof PasskeyError ? caught.message : refusalOf(caught, 'response');
      if (closed) setLocked(closed);
      else if (refusal) setPasskeyError(refusal);
      else notify.problem(caught);
    } finally {
      setBusy(null);
    }
  }

  async function signInAgain() {
    setLeaving(true);
    props.onSignInAgain?.();
    try {
      await endSession();
    } finally {
      navigate('/auth/login', { replace: true });
    }
  }

  if (locked) {
    return (
      <Stack gap="4">
        <Text role="alert">{locked}</Text>
        <Button loading={leaving} disabled={leaving} onClick={() => void signInAgain()}>
          {T.signInAgain}
        </Button>
      </Stack>
    );
  }

  const intro =
    mode === 'recovery'
      ? T.verifyRecoveryIntro
      : mode === 'totp'
        ? T.verifyTotpIntro
        : T.verifyPasskeyOnlyIntro;
  const recovery = mode === 'recovery';

  return (
    <Stack gap="4">
      {props.intro && <Text>{props.intro}</Text>}
      <Text>{intro}</Text>
      {mode !== 'passkey' && (
        <form onSubmit={submitCode} noValidate>
          <Stack gap="4">
            <FormField label={recovery ? T.recoveryLabel : T.totpLabel} error={error ?? undefined}>
              <Input
                ref={inputRef}
                key={mode}
                name={recovery ? 'recoveryCode' : 'code'}
                value={code}
                autoComplete={recovery ? 'off' : 'one-time-code'}
                inputMode={recovery ? 'text' : 'numeric'}
                autoCapitalize="none"
                spellCheck={false}
                maxLength={recovery ? 64 : 12}
                fontFamily="mono"
                onChange={(e) => {
                  setCode(e.target.value);
                  setError(null);
                }}
              />
            </FormField>
            <Button type="submit" loading={busy === 'code'} disabled={busy !== null}>
              {T.verify}
            </Button>
          </Stack>
        </form>
      )}
      {hasPasskey && (
        <Stack gap="1">
          <Button
            type="button"
            variant={mode === 'passkey' ? 'solid' : 'outline'}
            loading={busy === 'passkey'}
            disabled={busy !== null}
            aria-describedby={passkeyError ? passkeyErrorId : undefined}
            onClick={() => void signWithPasskey()}
          >
            {T.usePasskey}
          </Button>
          {passkeyError && (
            <Text id={passkeyErrorId} role="alert" color="fg.error" fontSize="sm">
              {passkeyError}
            </Text>
          )}
        </Stack>
      )}
      {/* A passkey-only account goes back from recovery codes with the passkey button above. */}
      {recovery ? (
        (hasTotp || !hasPasskey) && (
          <Button
            variant="plain"
            size="sm"
            color="brand.fg"
            textDecoration="underline"
            onClick={() => choose('totp')}
          >
            {T.useTotp}
          </Button>
        )
      ) : (
        <Button
          variant="plain"
          size="sm"
          color="brand.fg"
          textDecoration="underline"
          onClick={() => choose('recovery')}
        >
          {T.useRecovery}
        </Button>
      )}
      {props.footer}
    </Stack>
  );
}
