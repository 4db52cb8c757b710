import { Box, Button, Container, Flex, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { can } from '@wbs/shared';
import { useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError, upload } from '../api/client.ts';
import { useSession } from '../api/session.ts';
import { subjectOf } from '../api/types.ts';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { notify } from '../ui/toaster.tsx';
import { SuccessDialog } from './SuccessDialog.tsx';
import { StepCommunication, StepEvidence, StepIdentity, StepReport } from './steps.tsx';
import {
  buildCaseForm,
  type FilerContext,
  initialWizardState,
  LAST_STEP,
  newIdempotencyKey,
  STEP_TITLES,
  stepOfField,
  validateStep,
  type WizardState,
} from './wizardModel.ts';

export type StepProps = {
  state: WizardState;
  errors: Record<string, string>;
  update: (patch: Partial<WizardState>) => void;
  ctx: FilerContext;
};

export default function CaseWizardPage() {
  const { user } = useSession();
  const [, navigate] = useLocation();
  const confirm = useConfirm();
  const loading = useLoading();
  const ctx: FilerContext = {
    signedIn: user !== null,
    partnerUser: user !== null && (user.userTypeId === 3 || user.userTypeId === 5),
  };
  const [step, setStep] = useState(0);
  const [state, setState] = useState<WizardState>(initialWizardState);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const [created, setCreated] = useState<{ caseNumber: string; at: Date } | null>(null);
  // One key per submission: reused when the same, unchanged form is sent again after a failure.
  const idempotencyKey = useRef<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const update = (patch: Partial<WizardState>) => {
    idempotencyKey.current = null;
    setState((old) => ({ ...old, ...patch }));
    setErrors((old) => {
      const keys = Object.keys(patch);
      if (!keys.some((k) => k in old)) return old;
      const next = { ...old };
      for (const k of keys) delete next[k];
      return next;
    });
  };

  const goTo = (next: number) => {
    setStep(next);
    window.scrollTo({ top: 0 });
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  const next = () => {
    const result = validateStep(step, state, ctx);
    setErrors(result.errors);
    if (Object.keys(result.errors).length > 0) return;
    goTo(step + 1);
  };

  const previous = () => {
    setErrors({});
    goTo(step - 1);
  };

  async function save() {
    const result = validateStep(LAST_STEP, state, ctx);
    setErrors(result.errors);
    if (result.warnings.length > 0) notify.warning(result.warnings);
    if (Object.keys(result.errors).length > 0 || result.warnings.length > 0) return;
    // Earlier steps were validated on Next; check them again in case the session changed meanwhile.
    for (let s = 0; s < LAST_STEP; s++) {
      const earlier = validateStep(s, state, ctx);
      if (Object.keys(earlier.errors).length > 0) {
        setErrors(earlier.errors);
        goTo(s);
        return;
      }
    }
    const ok = await confirm({
      title: 'Simpan Pengaduan',
      message: 'Anda yakin ingin menyimpan pengaduan ini ?',
      actionLabel: 'Simpan',
    });
    if (!ok) return;
    idempotencyKey.current ??= newIdempotencyKey();
    setSubmitting(true);
    loading.show('Mengirim pengaduan...');
    loading.progress(0);
    try {
      const reply = await upload<{ message?: string; caseNumber: string }>(
        '/cases',
        buildCaseForm(state, ctx),
        {
          headers: { 'Idempotency-Key': idempotencyKey.current },
          onProgress: (fraction) => loading.progress(fraction),
        },
      );
      idempotencyKey.current = null;
      // The success dialog is the confirmation; no extra snackbar competes with it.
      setCreated({ caseNumber: reply.caseNumber, at: new Date() });
    } catch (error) {
      // Everything typed (files included) stays in memory for another try.
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
        const fields = Object.keys(error.fieldErrors);
        const target = Math.min(...fields.map(stepOfField));
        setErrors(error.fieldErrors);
        if (target !== step) goTo(target);
      }
      notify.problem(error);
    } finally {
      loading.hide();
      setSubmitting(false);
    }
  }

  const close = () => {
    const signedIn = user !== null;
    setCreated(null);
    setState(initialWizardState());
    setStep(0);
    navigate(signedIn ? '/admin/case' : '/');
  };

  if (user && !can(subjectOf(user), 'cases:create')) return null;

  const stepProps: StepProps = { state, errors, update, ctx };
  return (
    <Container maxW="4xl">
      <Stack gap="6">
        <Stack gap="1">
          <Heading as="h1" size="2xl">
            Buat Laporan
          </Heading>
          <Text color="fg.muted">
            Isi setiap langkah dengan lengkap. Data Anda tidak disimpan di perangkat ini dan dijaga
            kerahasiaannya.
          </Text>
        </Stack>
        <StepIndicator step={step} />
        <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '4', md: '8' }}>
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (step < LAST_STEP) next();
              else void save();
            }}
          >
            <Heading as="h2" size="lg" mb="6" ref={headingRef} tabIndex={-1} outline="none">
              {STEP_TITLES[step]}
            </Heading>
            {step === 0 && <StepIdentity {...stepProps} />}
            {step === 1 && <StepCommunication {...stepProps} />}
            {step === 2 && <StepReport {...stepProps} />}
            {step === 3 && <StepEvidence {...stepProps} />}
            <Flex mt="8" gap="3" justify="space-between" wrap="wrap">
              <Button type="button" variant="outline" onClick={previous} disabled={step === 0 || submitting}>
                Previous
              </Button>
              {step < LAST_STEP ? (
                <Button type="submit">Next</Button>
              ) : (
                <Button type="submit" loading={submitting} disabled={submitting}>
                  Save
                </Button>
              )}
            </Flex>
          </form>
        </Box>
      </Stack>
      {created && (
        <SuccessDialog caseNumber={created.caseNumber} createdAt={created.at} guest={!user} onClose={close} />
      )}
    </Container>
  );
}

function StepIndicator({ step }: { step: number }) {
  return (
    <Box as="ol" aria-label="Langkah pengisian" display="grid" gridTemplateColumns="repeat(4, 1fr)" gap="2">
      {STEP_TITLES.map((title, index) => {
        const state = index < step ? 'done' : index === step ? 'current' : 'todo';
        return (
          <HStack
            as="li"
            key={title}
            aria-current={state === 'current' ? 'step' : undefined}
            gap="2"
            align="flex-start"
            listStyleType="none"
          >
            <Flex
              flexShrink={0}
              w="7"
              h="7"
              rounded="full"
              align="center"
              justify="center"
              fontSize="sm"
              fontWeight="bold"
              bg={state === 'todo' ? 'bg.muted' : 'brand.solid'}
              color={state === 'todo' ? 'fg' : 'brand.contrast'}
              aria-hidden="true"
            >
              {index + 1}
            </Flex>
            <Text
              fontSize="sm"
              fontWeight={state === 'current' ? 'semibold' : 'normal'}
              display={{ base: state === 'current' ? 'block' : 'none', md: 'block' }}
            >
              <Box as="span" srOnly>
                {`Langkah ${index + 1}${state === 'done' ? ' (selesai)' : ''}: `}
              </Box>
              {title}
            </Text>
          </HStack>
        );
      })}
    </Box>
  );
}
