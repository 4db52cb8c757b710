import { Box, Button, Container, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { trackingSchema } from '@wbs/shared';
import { caseAttachmentsReply } from '@wbs/shared/api/case-evidence';
import type { Message } from '@wbs/shared/api/messages';
import { type ComponentProps, type FormEvent, Suspense, useRef, useState } from 'react';
import * as v from 'valibot';
import { ApiError, api } from '../api/client.ts';
import type { CaseDetailView as CaseDetailViewComponent } from '../case/CaseDetailView.tsx';
import { type CaseDetail, normaliseCaseDetail } from '../case/detail.ts';
import type { CaseAccess } from '../case/messages/access.ts';
import { FormField } from '../ui/FormField.tsx';
import { HydratedForm } from '../ui/HydratedForm.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { lazyWithRetry } from '../ui/lazyWithRetry.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { PasswordInput } from '../ui/PasswordInput.tsx';
import { notify } from '../ui/toaster.tsx';
import { type Errors, validate } from '../ui/validate.ts';
import { ReporterCopyButton } from './ReporterCopyButton.tsx';

/** The tracked case, its proof and Pesan once read: in this page's memory only; Kembali forgets all. */
type Tracked = { detail: CaseDetail; access: CaseAccess; messages: Message[] | null };

// The case view (tabs, messages, evidence upload) loads with the search, not with the form.
const CaseDetailView = lazyWithRetry<ComponentProps<typeof CaseDetailViewComponent>>(() =>
  import('../case/CaseDetailView.tsx').then((module) => ({ default: module.CaseDetailView })),
);

/**
 * Pantau Laporan (/admin/checkcase, open to guests). The number and password go in a POST body; the
 * case found is held in memory only (never in the URL or in storage). Kembali returns to the form.
 */
export default function CheckCasePage() {
  const [caseNumber, setCaseNumber] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [tracked, setTracked] = useState<Tracked | null>(null);
  const [busy, setBusy] = useState(false);
  const loading = useLoading();
  const numberRef = useRef<HTMLInputElement>(null);

  /** Pesan as last shown or read, for the copy (only while the same case is still tracked). */
  function keepMessages(access: CaseAccess, messages: Message[]) {
    setTracked((now) => (now?.access === access && now.messages !== messages ? { ...now, messages } : now));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = validate(trackingSchema, { caseNumber, password });
    setErrors(result.errors);
    if (!result.ok) return;
    setBusy(true);
    loading.show();
    try {
      const proof = { caseNumber: result.value.caseNumber.toUpperCase(), password: result.value.password };
      const [reply] = await Promise.all([
        api.POST('/api/v1/tracking', { body: proof, authRedirect: false }),
        CaseDetailView.preload(),
      ]);
      setTracked({
        detail: normaliseCaseDetail(reply),
        access: { kind: 'tracker', ...proof },
        messages: null,
      });
      setPassword('');
      window.scrollTo({ top: 0 });
    } catch (error) {
      // The legacy's warning (e.g. wrong number or password) is shown as a snackbar; the form stays.
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0)
        setErrors(error.fieldErrors);
      notify.problem(error);
    } finally {
      loading.hide();
      setBusy(false);
    }
  }

  if (tracked) {
    const { detail, access } = tracked;
    return (
      <Container maxW="5xl">
        <Suspense fallback={<PageSpinner />}>
          <CaseDetailView
            detail={detail}
            masked
            showReporterName
            actions={
              <ReporterCopyButton
                detail={detail}
                access={access}
                messages={tracked.messages}
                onMessages={(messages) => keepMessages(access, messages)}
              />
            }
            talk={{
              access,
              audience: 'reporter',
              canWrite: true,
              onEvidenceAdded: (reply) => {
                const { attachments } = v.parse(caseAttachmentsReply, reply);
                setTracked((now) =>
                  now?.access === access ? { ...now, detail: { ...now.detail, attachments } } : now,
                );
              },
              initialMessages: tracked.messages,
              onMessages: (messages) => keepMessages(access, messages),
            }}
            onBack={() => {
              setTracked(null);
              requestAnimationFrame(() => numberRef.current?.focus());
            }}
          />
        </Suspense>
      </Container>
    );
  }

  return (
    <Container maxW="md">
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '5', md: '8' }} shadow="sm">
        <Stack gap="2" mb="6">
          <Heading as="h1" size="2xl">
            Pantau Laporan
          </Heading>
          <Text color="fg.muted">
            Masukkan Nomor Laporan dan kata sandi yang Anda buat saat mengirim laporan untuk melihat
            perkembangannya.
          </Text>
        </Stack>
        <HydratedForm onSubmit={submit}>
          <Stack gap="4">
            <FormField label="Nomor Laporan" error={errors.caseNumber}>
              <Input
                ref={numberRef}
                name="caseNumber"
                placeholder="WBS-12345678"
                autoComplete="off"
                spellCheck={false}
                value={caseNumber}
                maxLength={50}
                onChange={(e) => setCaseNumber(e.target.value)}
              />
            </FormField>
            <FormField label="Kata sandi" error={errors.password}>
              <PasswordInput
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </FormField>
            <Button type="submit" loading={busy} disabled={busy}>
              Cari Laporan
            </Button>
          </Stack>
        </HydratedForm>
      </Box>
    </Container>
  );
}
