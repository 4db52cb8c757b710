import { Button } from '@chakra-ui/react';
import { SECOND_FACTOR_PATHS, targetAfterLogin, UI_MESSAGES } from '@wbs/shared';
import { useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { useEndSession } from '../api/auth.ts';
import { secondFactorReturn, useSession } from '../api/session.ts';
import { AuthCard } from '../ui/AuthCard.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import { FactorPrompt } from './FactorPrompt.tsx';
import { SECOND_FACTOR_TEXTS as T } from './texts.ts';

/**
 * Verifikasi Dua Langkah: the password was right and the account has a factor. Once given, the user
 * goes where the sign-in would have gone (or back to the page the step interrupted); Batal signs out.
 */
export default function VerifyPage() {
  const { session, pending, loading, mutate } = useSession();
  const endSession = useEndSession();
  const [, navigate] = useLocation();
  const [leaving, setLeaving] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);

  if (leaving) return <Redirect to={leaving} replace />;
  if (loading) return <PageSpinner />;
  if (!session) return <Redirect to="/auth/login" replace />;
  if (pending === 'enrol') return <Redirect to={SECOND_FACTOR_PATHS.enrol} replace />;
  if (pending !== 'verify') return <Redirect to={targetAfterLogin(session.user.userTypeId)} replace />;

  const { user } = session;
  const cancel = async () => {
    setCancelling(true);
    try {
      await endSession();
    } finally {
      navigate('/auth/login', { replace: true });
    }
  };

  return (
    <AuthCard title={T.verifyTitle} subtitle={T.verifyIntro}>
      <FactorPrompt
        methods={session.secondFactor?.methods ?? []}
        onVerified={async (secondFactor) => {
          setLeaving(secondFactorReturn.take() ?? targetAfterLogin(user.userTypeId));
          await mutate({ user, secondFactor }, { revalidate: false });
          // Spec §4: the sign-in's success message, once the sign-in is complete.
          notify.success(UI_MESSAGES.loginSucceeded);
        }}
        footer={
          <Button variant="outline" loading={cancelling} disabled={cancelling} onClick={() => void cancel()}>
            {T.cancel}
          </Button>
        }
      />
    </AuthCard>
  );
}
