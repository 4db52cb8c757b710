import { Button, Link as ChakraLink, Input, Stack, Text } from '@chakra-ui/react';
import { forgotPasswordSchema } from '@wbs/shared';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, api } from '../api/client.ts';
import { AuthCard } from '../ui/AuthCard.tsx';
import { FormField } from '../ui/FormField.tsx';
import { notify } from '../ui/toaster.tsx';
import { type Errors, validate } from '../ui/validate.ts';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = validate(forgotPasswordSchema, { email });
    setErrors(result.errors);
    if (!result.ok) return;
    setBusy(true);
    try {
      const reply = await api.POST('/api/v1/password/forgot', {
        body: result.value,
        authRedirect: false,
      });
      setSent(reply.message); // shown in the form (a snackbar would repeat the same text)
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length) setErrors(error.fieldErrors);
      notify.problem(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Lupa Kata Sandi" subtitle="Masukkan email akun Anda untuk mengatur ulang kata sandi.">
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          {sent && (
            <Text role="status" bg="green.subtle" color="green.fg" p="3" rounded="md">
              {sent}
            </Text>
          )}
          <FormField label="Email" error={errors.email}>
            <Input
              name="email"
              type="email"
              autoComplete="email"
              value={email}
              maxLength={100}
              onChange={(e) => setEmail(e.target.value)}
            />
          </FormField>
          <Button type="submit" loading={busy} disabled={busy}>
            Kirim
          </Button>
          <ChakraLink asChild alignSelf="center" color="brand.fg" textDecoration="underline">
            <Link href="/auth/login">Kembali ke halaman Masuk</Link>
          </ChakraLink>
        </Stack>
      </form>
    </AuthCard>
  );
}
