import { Button, Stack, Text } from '@chakra-ui/react';
import { SECOND_FACTOR_PATHS, targetAfterLogin, UI_MESSAGES } from '@wbs/shared';
import { useId, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { useEndSession } from '../api/auth.ts';
import { type SecondFactorState, secondFactorReturn, useSession } from '../api/session.ts';
import { AuthCard } from '../ui/AuthCard.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import type { FactorAddedReply } from './calls.ts';
import { PasskeyEnrolment, TotpEnrolment } from './Enrolment.tsx';
import { passkeysSupported } from './passkey.ts';
import { RecoveryCodes } from './RecoveryCodes.tsx';
import { SECOND_FACTOR_TEXTS as T } from './texts.ts';

type Choice = 'totp' | 'passkey';

/**
 * Aktifkan Verifikasi Dua Langkah: the password was right, the user's type must have a second factor
 * and the account has none. The first factor added brings the recovery codes, shown once; then the
 * user goes on where the sign-in would have gone. Batal signs out.
 */
export default function EnrolPage() {
  const { session, pending, loading, mutate } = useSession();
  const endSession = useEndSession();
  const [, navigate] = useLocation();
  const [choice, setChoice] = useState<Choice | null>(null);
  // The factor is in; the session becomes a full one only after the codes were kept.
  const [added, setAdded] = useState<{ state: SecondFactorState; codes: string[] } | null>(null);
  const [leaving, setLeaving] = useState<string | null>(null);

  if (leaving) return <Redirect to={leaving} replace />;
  if (loading) return <PageSpinner />;
  if (!session) return <Redirect to="/auth/login" replace />;
  const { user } = session;

  const finish = async (state: SecondFactorState) => {
    setLeaving(secondFactorReturn.take() ?? targetAfterLogin(user.userTypeId));
    await mutate({ user, secondFactor: state }, { revalidate: false });
    notify.success(UI_MESSAGES.loginSucceeded);
  };

  if (added) {
    return (
      <AuthCard title={T.recoveryTitle}>
        <RecoveryCodes codes={added.codes} doneLabel={T.continue} onDone={() => void finish(added.state)} />
      </AuthCard>
    );
  }
  if (pending === 'verify') return <Redirect to={SECOND_FACTOR_PATHS.verify} replace />;
  if (pending !== 'enrol') return <Redirect to={targetAfterLogin(user.userTypeId)} replace />;

  const onAdded = (reply: FactorAddedReply) => {
    if (reply.recoveryCodes?.length) setAdded({ state: reply.secondFactor, codes: reply.recoveryCodes });
    else void finish(reply.secondFactor);
  };
  const cancel = async () => {
    try {
      await endSession();
    } finally {
      navigate('/auth/login', { replace: true });
    }
  };
  const back = (
    <Button type="button" variant="outline" onClick={() => setChoice(null)}>
      {T.back}
    </Button>
  );

  return (
    <AuthCard title={T.enrolTitle} subtitle={T.enrolIntro}>
      {choice === 'totp' && <TotpEnrolment onAdded={onAdded} actions={back} />}
      {choice === 'passkey' && <PasskeyEnrolment onAdded={onAdded} actions={back} />}
      {choice === null && (
        <Stack gap="4">
          <Text fontWeight="semibold">{T.enrolChoose}</Text>
          <ChoiceButton label={T.totpChoice} help={T.totpChoiceHelp} onClick={() => setChoice('totp')} />
          {passkeysSupported() && (
            <ChoiceButton
              label={T.passkeyChoice}
              help={T.passkeyChoiceHelp}
              onClick={() => setChoice('passkey')}
            />
          )}
          <Button variant="outline" onClick={() => void cancel()}>
            {T.cancel}
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}

/** One way to enrol: its name on the button, the line on what it is under it (the button's description). */
function ChoiceButton(props: { label: string; help: string; onClick: () => void }) {
  const helpId = useId();
  return (
    <Stack gap="1">
      <Button variant="outline" justifyContent="flex-start" aria-describedby={helpId} onClick={props.onClick}>
        {props.label}
      </Button>
      <Text id={helpId} fontSize="sm" color="fg.muted">
        {props.help}
      </Text>
    </Stack>
  );
}
