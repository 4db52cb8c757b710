import { Box, Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { NOTICE_TOKEN_PATTERN } from '@wbs/shared/api/reporter-notices';
import { DIGEST_STOP_MESSAGES as D, format, REPORTER_NOTICE_MESSAGES as M } from '@wbs/shared/messages';
import { useEffect, useState } from 'react';
import { ApiError } from '../api/client.ts';
import { notify } from '../ui/toaster.tsx';
import { confirmNotices, optOutOfNotices, stopDigest, takeTokenFromFragment } from './access.ts';

type Kind = 'confirm' | 'opt-out' | 'digest';

/** A staff digest's token: the user id and its MAC, both base64url (gateway notifications/unsubscribe.ts). */
const DIGEST_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,20}\.[A-Za-z0-9_-]{43}$/;

const TEXTS: Record<Kind, { title: string; intro: string; button: string; pattern: RegExp }> = {
  confirm: {
    title: M.confirmTitle,
    intro: M.confirmIntro,
    button: M.confirmButton,
    pattern: NOTICE_TOKEN_PATTERN,
  },
  'opt-out': { title: M.optOutTitle, intro: M.optOutIntro, button: M.stop, pattern: NOTICE_TOKEN_PATTERN },
  digest: { title: D.title, intro: D.intro, button: D.button, pattern: DIGEST_TOKEN_PATTERN },
};

/**
 * The page a mail link opens (/notifikasi/konfirmasi#token, /notifikasi/berhenti#token, and a staff
 * digest's /notifikasi/ringkasan#token). The token is
 * in the fragment, which the browser never sends; the page takes it out of the address bar at once
 * and posts it only when the button is pressed: a mail scanner that opens links confirms or stops
 * nothing.
 */
function NoticeLinkPage({ kind }: { kind: Kind }) {
  const [token, setToken] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const texts = TEXTS[kind];

  useEffect(() => {
    setToken(takeTokenFromFragment(window.location));
  }, []);

  const valid = token !== null && texts.pattern.test(token);

  async function send() {
    if (!token) return;
    setBusy(true);
    try {
      if (kind === 'confirm') {
        const reply = await confirmNotices(token);
        setOutcome({ ok: true, text: format(M.confirmed, { address: reply.confirmed }) });
      } else if (kind === 'digest') {
        setOutcome({ ok: true, text: (await stopDigest(token)).message });
      } else {
        setOutcome({ ok: true, text: (await optOutOfNotices(token)).message });
      }
    } catch (problem) {
      if (problem instanceof ApiError && (problem.status === 404 || problem.status === 400)) {
        setOutcome({ ok: false, text: kind === 'confirm' ? M.confirmFailed : M.linkMissing });
      } else notify.problem(problem);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Container maxW="md" py="8">
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '5', md: '8' }} shadow="sm">
        <Stack gap="4">
          <Heading as="h1" size="xl">
            {texts.title}
          </Heading>
          {token !== null && !valid && <Text role="alert">{M.linkMissing}</Text>}
          {valid && !outcome && (
            <>
              <Text>{texts.intro}</Text>
              <Box>
                <Button onClick={send} loading={busy} disabled={busy}>
                  {texts.button}
                </Button>
              </Box>
            </>
          )}
          {outcome && (
            <Text
              role={outcome.ok ? 'status' : 'alert'}
              bg={outcome.ok ? 'bg.success' : 'bg.error'}
              p="3"
              rounded="md"
            >
              {outcome.text}
            </Text>
          )}
        </Stack>
      </Box>
    </Container>
  );
}

export function ConfirmNoticePage() {
  return <NoticeLinkPage kind="confirm" />;
}

export function OptOutNoticePage() {
  return <NoticeLinkPage kind="opt-out" />;
}

export function StopDigestPage() {
  return <NoticeLinkPage kind="digest" />;
}
