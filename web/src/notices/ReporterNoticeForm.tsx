import { Box, Button, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { type ReporterNoticeStatusReply, reporterNoticeRequest } from '@wbs/shared/api/reporter-notices';
import { format, REPORTER_NOTICE_MESSAGES as M } from '@wbs/shared/messages';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../api/client.ts';
import { accessKey, type CaseAccess } from '../case/messages/access.ts';
import { ReporterPanel } from '../case/messages/ReporterPanel.tsx';
import { FormField } from '../ui/FormField.tsx';
import { notify } from '../ui/toaster.tsx';
import { validate } from '../ui/validate.ts';
import { askForNotices, fetchNoticeStatus, stopNotices } from './access.ts';

/**
 * "Beri tahu saya lewat e-mail bila ada tanggapan": an address (a separate, throwaway one is fine),
 * checked here with the gateway's own rule, then a confirmation link goes to it. The answer is the
 * same whatever happened, so it is shown as it came; the field is emptied.
 */
export function ReporterNoticeForm(props: { access: CaseAccess; onRequested?: () => void }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<string | null>(null);
  const hintId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The form may sit inside another (a dialog over the wizard): its submit is this form's alone.
    event.stopPropagation();
    const result = validate(reporterNoticeRequest, { email });
    setError(result.errors.email);
    if (!result.ok) return;
    setBusy(true);
    setAnswer(null);
    try {
      const reply = await askForNotices(props.access, result.value.email);
      setAnswer(reply.message);
      setEmail('');
      props.onRequested?.();
    } catch (problem) {
      if (problem instanceof ApiError && problem.fieldErrors.email) setError(problem.fieldErrors.email);
      else notify.problem(problem);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label={M.title}>
      <Stack gap="3" textAlign="start">
        <Text fontSize="sm" id={hintId}>
          {M.intro} {M.throwaway}
        </Text>
        <FormField label={M.emailLabel} error={error}>
          <Input
            name="notice-email"
            type="email"
            inputMode="email"
            // Not the browser's remembered address: a throwaway one is the point.
            autoComplete="off"
            spellCheck={false}
            maxLength={254}
            placeholder={M.emailPlaceholder}
            aria-describedby={hintId}
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(undefined);
            }}
          />
        </FormField>
        <Box>
          <Button type="submit" size="sm" loading={busy} disabled={busy}>
            {M.submit}
          </Button>
        </Box>
        {answer && (
          <Text role="status" fontSize="sm" bg="bg.info" color="fg.info" p="3" rounded="md">
            {answer}
          </Text>
        )}
      </Stack>
    </form>
  );
}

/**
 * The tracked view's panel (tracker and pelapor): where notices go now (masked), an address waiting
 * for its link, the form, and the button that stops the mails and deletes the address.
 */
export function ReporterNoticeSection({ access }: { access: CaseAccess }) {
  const [status, setStatus] = useState<ReporterNoticeStatusReply | null>(null);
  const [stopping, setStopping] = useState(false);
  const accessRef = useRef(access);
  accessRef.current = access;
  const key = accessKey(access);
  const [version, setVersion] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads when the case (key) or an answer changes
  useEffect(() => {
    let live = true;
    fetchNoticeStatus(accessRef.current)
      .then((reply) => live && setStatus(reply))
      .catch((e: unknown) => live && notify.problem(e));
    return () => {
      live = false;
    };
  }, [key, version]);

  const stop = async () => {
    setStopping(true);
    try {
      setStatus(await stopNotices(accessRef.current));
      notify.success(M.stopped);
    } catch (problem) {
      notify.problem(problem);
    } finally {
      setStopping(false);
    }
  };

  const subscribed = Boolean(status?.confirmed || status?.pending);
  return (
    <ReporterPanel title={M.title}>
      <Stack gap="3">
        {status && (
          <Stack gap="1" data-testid="notice-status">
            {status.confirmed && <Text>{format(M.current, { address: status.confirmed })}</Text>}
            {status.pending && <Text color="fg.muted">{format(M.pending, { address: status.pending })}</Text>}
            {!subscribed && <Text color="fg.muted">{M.none}</Text>}
          </Stack>
        )}
        <ReporterNoticeForm access={access} onRequested={() => setVersion((v) => v + 1)} />
        {subscribed && (
          <HStack>
            <Button size="sm" variant="outline" colorPalette="red" onClick={stop} loading={stopping}>
              {M.stop}
            </Button>
          </HStack>
        )}
      </Stack>
    </ReporterPanel>
  );
}
