import { Button, Stack, Text } from '@chakra-ui/react';
import { changePasswordSchema, SECOND_FACTOR_PATHS, targetAfterLogin } from '@wbs/shared';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { Redirect, useLocation } from 'wouter';
import { forcedPasswordChange } from '../api/auth.ts';
import { ApiError, api } from '../api/client.ts';
import { pendingStep, secondFactorReturn, useSession } from '../api/session.ts';
import { asUser } from '../api/types.ts';
import { AuthCard } from '../ui/AuthCard.tsx';
import { FormField } from '../ui/FormField.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { PasswordInput } from '../ui/PasswordInput.tsx';
import { notify } from '../ui/toaster.tsx';
import { type Errors, validate } from '../ui/validate.ts';

/**
 * Forced mode: right after a sign-in answered passwordChangeRequired (the gateway holds the short-lived
 * wbs_pwchange cookie and signs the user in on success). Normal mode: a signed-in user from the top bar.
 */
export default function ChangePasswordPage() {
  const { user, loading, mutate } = useSession();
  const [, navigate] = useLocation();
  const [values, setValues] = useState({ oldPassword: '', newPassword: '', confirmNewPassword: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const forced = forcedPasswordChange.get();

  if (loading) return <PageSpinner />;
  if (!user && !forced) return <Redirect to="/auth/login" replace />;

  const set = (field: keyof typeof values) => (e: ChangeEvent<HTMLInputElement>) =>
    setValues((old) => ({ ...old, [field]: e.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = validate(changePasswordSchema, values);
    setErrors(result.errors);
    if (!result.ok) return;
    setBusy(true);
    try {
      const reply = await api.PUT('/api/v1/password', {
        body: result.value,
        authRedirect: !forced,
      });
      forcedPasswordChange.set(false);
      notify.success(reply.message);
      const renewed = reply.user ? asUser(reply.user) : null;
      const signedIn = renewed ?? user;
      const session = renewed ? { user: renewed, secondFactor: reply.secondFactor } : null;
      if (session) await mutate(session, { revalidate: false });
      setValues({ oldPassword: '', newPassword: '', confirmNewPassword: '' });
      // Spec section 4: after a forced change the product signs in again and goes to /; the new session
      // may still owe its second factor, given (or enrolled) first.
      const pending = pendingStep(session);
      if (pending) {
        if (forced) secondFactorReturn.set('/');
        navigate(SECOND_FACTOR_PATHS[pending]);
      } else if (forced && renewed) navigate('/');
      else navigate(signedIn ? targetAfterLogin(signedIn.userTypeId) : '/auth/login');
    } catch (error) {
      if (error instanceof ApiError) {
        if (Object.keys(error.fieldErrors).length) setErrors(error.fieldErrors);
        if (forced && error.status === 401) {
          // the short-lived change-password cookie has expired: sign in again
          forcedPasswordChange.set(false);
          navigate('/auth/login');
        }
      }
      notify.problem(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Ubah Kata Sandi"
      subtitle={
        forced
          ? 'Anda masih menggunakan kata sandi awal. Silakan ganti kata sandi Anda sebelum melanjutkan.'
          : undefined
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <FormField label="Kata sandi lama" error={errors.oldPassword}>
            <PasswordInput
              name="oldPassword"
              autoComplete="current-password"
              value={values.oldPassword}
              onChange={set('oldPassword')}
            />
          </FormField>
          <FormField label="Kata sandi baru" error={errors.newPassword} helper="Minimal 8 karakter.">
            <PasswordInput
              name="newPassword"
              autoComplete="new-password"
              value={values.newPassword}
              onChange={set('newPassword')}
            />
          </FormField>
          <FormField label="Konfirmasi kata sandi baru" error={errors.confirmNewPassword}>
            <PasswordInput
              name="confirmNewPassword"
              autoComplete="new-password"
              value={values.confirmNewPassword}
              onChange={set('confirmNewPassword')}
            />
          </FormField>
          <Button type="submit" loading={busy} disabled={busy}>
            Simpan
          </Button>
          {user && (
            <Text fontSize="sm" color="fg.muted">
              Masuk sebagai {user.displayName ?? user.username}
            </Text>
          )}
        </Stack>
      </form>
    </AuthCard>
  );
}
