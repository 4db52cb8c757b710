import { Box, Button, Container, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { can, FIELD_MESSAGES } from '@wbs/shared';
import type { Receipt } from '@wbs/shared/api/case-create';
import { UPLOAD_DRAFT_HEADER } from '@wbs/shared/api/uploads';
import { targetAfterLogin } from '@wbs/shared/landing';
import { useEffect, useRef, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { ApiError, upload } from '../api/client.ts';
import { useSession } from '../api/session.ts';
import { isPartnerUser, subjectOf } from '../api/types.ts';
import { preloadConfirmDialog, useConfirm } from '../ui/ConfirmDialog.tsx';
import { ErrorBoundary } from '../ui/ErrorBoundary.tsx';
import { HydratedForm } from '../ui/HydratedForm.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { retryImport } from '../ui/lazyWithRetry.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify, preloadToaster } from '../ui/toaster.tsx';
import { fileErrorsFrom } from './attachments.ts';
import { useResumableUploads } from './resumableUploads.ts';
import { SafeSuccessDialog } from './SuccessDialog.tsx';
import { StepCommunication } from './wizard/StepCommunication.tsx';
import { StepEvidence } from './wizard/StepEvidence.tsx';
import { StepIdentity } from './wizard/StepIdentity.tsx';
import { StepIndicator } from './wizard/StepIndicator.tsx';
import { StepReport } from './wizard/StepReport.tsx';
import type { StepProps } from './wizard/types.ts';
import { isGuardEntry, useLeaveGuard } from './wizard/useLeaveGuard.ts';
import {
  buildCaseForm,
  type FilerContext,
  hasTypedData,
  initialWizardState,
  LAST_STEP,
  newIdempotencyKey,
  STEP_TITLES,
  stepOfField,
  validateStep,
  type WizardState,
} from './wizardModel.ts';

const loadCommonPasswords = () => retryImport(() => import('@wbs/shared/common-passwords'));

/** The common-password rule, checked here too so the reporter hears it before sending files. */
async function commonPasswordError(password: string): Promise<string | null> {
  try {
    const { isCommonPassword } = await loadCommonPasswords();
    return isCommonPassword(password) ? FIELD_MESSAGES.casePasswordCommon : null;
  } catch {
    // The list could not load (offline): the gateway checks the same list on submit.
    return null;
  }
}

/** Brings the first error into view, clear of the sticky header (centred), and focuses its field. */
function revealFirstError() {
  requestAnimationFrame(() => {
    const first = document.querySelector<HTMLElement>(
      'main form [aria-invalid="true"], main form [data-invalid], main form [data-file-error]',
    );
    if (!first) return;
    first.scrollIntoView({ block: 'center', behavior: 'smooth' });
    const field = first.matches('input, textarea, select')
      ? first
      : first.querySelector<HTMLElement>('input, textarea, select, button');
    field?.focus({ preventScroll: true });
  });
}

/**
 * The spec redirects signed-in users away from /case, yet sends filers (types 2, 3 and privileged
 * 4/5) to /case/create: a signed-in user may open the wizard only when allowed to file a case. Checked
 * here, not in App.tsx, so the policy table loads with the wizard instead of with every public page.
 */
export default function CaseWizardPage() {
  const { user, loading } = useSession();
  if (loading) return <PageSpinner />;
  if (user && !can(subjectOf(user), 'cases:create')) {
    return <Redirect to={targetAfterLogin(user.userTypeId)} replace />;
  }
  return <CaseWizard />;
}

function CaseWizard() {
  const { user } = useSession();
  const [, navigate] = useLocation();
  const confirm = useConfirm();
  const loading = useLoading();
  const ctx: FilerContext = {
    signedIn: user !== null,
    partnerUser: user !== null && isPartnerUser(user),
  };
  const [step, setStep] = useState(0);
  const [state, setState] = useState<WizardState>(initialWizardState);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [fileErrors, setFileErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const [created, setCreated] = useState<{
    caseNumber: string;
    at: Date;
    receipt?: Receipt;
    respondBy?: string;
    /** A guest's case password, kept (in memory) for the e-mail notice form until Tutup. */
    password?: string;
  } | null>(null);
  // One key per submission: reused when the same, unchanged form is sent again after a failure.
  const idempotencyKey = useRef<string | null>(null);
  const uploads = useResumableUploads();
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Everything a submission needs is loaded before it starts: a connection that drops at the moment
  // of sending (or a deployment meanwhile) must not leave the page without its dialogs and messages.
  useEffect(() => {
    void preloadConfirmDialog();
    void preloadToaster();
  }, []);
  useEffect(() => {
    if (step === LAST_STEP && !ctx.signedIn) void loadCommonPasswords().catch(() => undefined);
  }, [step, ctx.signedIn]);

  useLeaveGuard(created === null && hasTypedData(state));

  const update = (patch: Partial<WizardState>) => {
    idempotencyKey.current = null;
    if ('evidence' in patch || 'attachments' in patch) setFileErrors({});
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
    if (Object.keys(result.errors).length > 0) {
      revealFirstError();
      return;
    }
    goTo(step + 1);
  };

  const previous = () => {
    setErrors({});
    goTo(step - 1);
  };

  async function save() {
    const result = validateStep(LAST_STEP, state, ctx);
    if (!ctx.signedIn && !result.errors.password) {
      const common = await commonPasswordError(state.password);
      if (common) result.errors.password = common;
    }
    setErrors(result.errors);
    if (result.warnings.length > 0) notify.warning(result.warnings);
    if (Object.keys(result.errors).length > 0) revealFirstError();
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
      // Files still on their way are waited for (their rows show how far they are); a refused one
      // is named by the gateway under its field, as before.
      if (uploads.mode === 'resumable') {
        loading.show('Menunggu unggahan file selesai...');
        await uploads.settled();
        loading.show('Mengirim pengaduan...');
      }
      const draftToken = await uploads.token();
      const reply = await upload('/api/v1/cases', buildCaseForm(state, ctx, draftToken === null), {
        headers: {
          'Idempotency-Key': idempotencyKey.current,
          ...(draftToken === null ? {} : { [UPLOAD_DRAFT_HEADER]: draftToken }),
        },
        onProgress: (fraction) => loading.progress(fraction),
      });
      uploads.reset();
      idempotencyKey.current = null;
      // The success dialog is the confirmation; no extra snackbar competes with it.
      setCreated({
        caseNumber: reply.caseNumber,
        // The signed filing time, so the PDF shows the time its receipt vouches for.
        at: reply.receipt ? new Date(reply.receipt.filedAt) : new Date(),
        ...(reply.receipt ? { receipt: reply.receipt } : {}),
        ...(reply.respondBy ? { respondBy: reply.respondBy } : {}),
        ...(ctx.signedIn ? {} : { password: state.password }),
      });
    } catch (error) {
      // Everything typed (files included) stays in memory for another try.
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
        const placed = fileErrorsFrom(error.fieldErrors, state.evidence, state.attachments);
        const fieldErrors = { ...error.fieldErrors };
        for (const key of Object.keys(fieldErrors)) {
          if (key.startsWith('evidence') || key.startsWith('attachments')) delete fieldErrors[key];
        }
        Object.assign(fieldErrors, placed.unplaced);
        const fields = [...Object.keys(fieldErrors), ...Object.keys(placed.byFile).map(() => 'evidence')];
        const target = fields.length > 0 ? Math.min(...fields.map(stepOfField)) : step;
        setErrors(fieldErrors);
        setFileErrors(placed.byFile);
        if (target !== step) goTo(target);
        // Spec section 8: the status text and every error text, joined. The title, not the detail: the
        // detail already names these same field errors.
        notify.error([error.title, ...Object.values(error.fieldErrors)]);
        setTimeout(revealFirstError, 50);
      } else {
        notify.problem(error);
      }
    } finally {
      loading.hide();
      setSubmitting(false);
    }
  }

  const close = () => {
    const signedIn = user !== null;
    setCreated(null);
    uploads.reset();
    setState(initialWizardState());
    setStep(0);
    navigate(signedIn ? '/admin/case' : '/', { replace: isGuardEntry() });
  };

  if (user && !can(subjectOf(user), 'cases:create')) return null;

  const stepProps: StepProps = { state, errors, fileErrors, update, ctx, uploads };
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
          <HydratedForm
            onSubmit={(e) => {
              e.preventDefault();
              if (step < LAST_STEP) next();
              else void save();
            }}
          >
            <Heading as="h2" size="lg" mb="6" ref={headingRef} tabIndex={-1} outline="none">
              {STEP_TITLES[step]}
            </Heading>
            {/* A failing step shows a message; the typed data lives above it and stays. */}
            <ErrorBoundary key={step}>
              {step === 0 && <StepIdentity {...stepProps} />}
              {step === 1 && <StepCommunication {...stepProps} />}
              {step === 2 && <StepReport {...stepProps} />}
              {step === 3 && <StepEvidence {...stepProps} />}
            </ErrorBoundary>
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
          </HydratedForm>
        </Box>
      </Stack>
      {created && (
        <SafeSuccessDialog
          caseNumber={created.caseNumber}
          createdAt={created.at}
          {...(created.receipt ? { receipt: created.receipt } : {})}
          {...(created.respondBy ? { respondBy: created.respondBy } : {})}
          guest={!user}
          {...(created.password
            ? { tracker: { caseNumber: created.caseNumber, password: created.password } }
            : {})}
          onClose={close}
        />
      )}
    </Container>
  );
}
