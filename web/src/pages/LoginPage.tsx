import { Button, Link as ChakraLink, Input, Stack } from '@chakra-ui/react';
import {
  loginSchema,
  PROBLEM_MESSAGES,
  SECOND_FACTOR_PATHS,
  targetAfterLogin,
  UI_MESSAGES,
} from '@wbs/shared';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { deviceToken, forcedPasswordChange } from '../api/auth.ts';
import { ApiError, api } from '../api/client.ts';
import { pendingStep, useSession } from '../api/session.ts';
import { asUser } from '../api/types.ts';
import { AuthCard } from '../ui/AuthCard.tsx';
import { FormField } from '../ui/FormField.tsx';
import { PasswordInput } from '../ui/PasswordInput.tsx';
import { notify } from '../ui/toaster.tsx';
import { type Errors, validate } from '../ui/validate.ts';

export default function LoginPage() {
  const { mutate } = useSession();
  const [, navigate] = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = validate(loginSchema, { username, password });
    setErrors(result.errors);
    if (!result.ok) return;
    setBusy(true);
    try {
      const reply = await api.POST('/api/v1/session', {
        body: { ...result.value, deviceToken: deviceToken.get() },
        authRedirect: false,
      });
      if ('passwordChangeRequired' in reply && reply.passwordChangeRequired) {
        forcedPasswordChange.set(true);
        notify.info(PROBLEM_MESSAGES.passwordChangeRequired);
        navigate('/user/changepassword');
        return;
      }
      if ('user' in reply) {
        forcedPasswordChange.set(false);
        deviceToken.set(reply.deviceToken);
        const user = asUser(reply.user);
        const session = { user, secondFactor: reply.secondFactor };
        await mutate(session, { revalidate: false });
        // The password was the first step: the second (a factor, or adding the first one) comes next.
        const pending = pendingStep(session);
        if (pending) return navigate(SECOND_FACTOR_PATHS[pending]);
        // Spec §4: the success message (the legacy's 'Login berhasil'), shown about 3 s.
        notify.success(UI_MESSAGES.loginSucceeded);
        navigate(targetAfterLogin(user.userTypeId));
      }
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length) setErrors(error.fieldErrors);
      notify.problem(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Masuk" subtitle="Masuk ke Whistleblowing System">
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <FormField label="Username" error={errors.username}>
            <Input
              name="username"
              autoComplete="username"
              value={username}
              maxLength={50}
              onChange={(e) => setUsername(e.target.value)}
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
          <Button type="submit" loading={busy} loadingText="Masuk" disabled={busy}>
            Masuk
          </Button>
          <ChakraLink asChild alignSelf="center" color="brand.fg" textDecoration="underline">
            <Link href="/auth/forgotpassword">Lupa kata sandi?</Link>
          </ChakraLink>
        </Stack>
      </form>
    </AuthCard>
  );
}
