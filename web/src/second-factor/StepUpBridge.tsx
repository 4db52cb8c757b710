import { Suspense, useEffect, useState } from 'react';
import { setStepUpHandler } from '../api/client.ts';
import { ErrorBoundary, FAILURE_TEXTS } from '../ui/ErrorBoundary.tsx';
import { lazyWithRetry } from '../ui/lazyWithRetry.tsx';
import { notify } from '../ui/toaster.tsx';

// The prompt and the passkey machinery load when an action first asks for them.
const StepUpDialog = lazyWithRetry(() => import('./StepUpDialog.tsx'));

type Prompt = { message: string | undefined; resolve: (verified: boolean) => void };

/**
 * The client's step-up handler (api/client.ts): a 401 `step-up-required` of any call opens
 * Verifikasi Ulang; once a factor is given the client sends the call again, declined it fails
 * quietly.
 */
export function StepUpBridge() {
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  useEffect(() => {
    setStepUpHandler(
      (error) =>
        new Promise<boolean>((resolve) => {
          setPrompt({ message: error.messages[0], resolve });
        }),
    );
    return () => setStepUpHandler(null);
  }, []);
  if (!prompt) return null;
  const done = (verified: boolean) => {
    setPrompt(null);
    prompt.resolve(verified);
  };
  return (
    <ErrorBoundary fallback={() => <Declined onDone={() => done(false)} />}>
      <Suspense fallback={null}>
        <StepUpDialog message={prompt.message} onDone={done} />
      </Suspense>
    </ErrorBoundary>
  );
}

/** The prompt could not load (connection lost): the action is declined, saying why. */
function Declined(props: { onDone: () => void }) {
  const { onDone } = props;
  useEffect(() => {
    notify.error(FAILURE_TEXTS.page);
    onDone();
  }, [onDone]);
  return null;
}
