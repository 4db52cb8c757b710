import { Box, Button, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { CASE_PASSWORD_MIN } from '@wbs/shared';
import { generatePassphrase } from '@wbs/shared/passphrase';
import { useState } from 'react';
import { FormField } from '../../ui/FormField.tsx';
import { PasswordInput } from '../../ui/PasswordInput.tsx';
import { notify } from '../../ui/toaster.tsx';
import { copyText } from '../copyText.ts';
import type { StepProps } from './types.ts';

export const PASSWORD_HELP = `Minimal ${CASE_PASSWORD_MIN} karakter. Hindari kata sandi umum (misalnya "password123") serta karakter yang berulang atau berurutan.`;

/**
 * A guest's case password (with its confirmation) and an offer to generate a strong passphrase,
 * shown in clear so the reporter can write it down: it cannot be recovered.
 */
export function CasePasswordFields({
  state,
  errors,
  update,
}: Pick<StepProps, 'state' | 'errors' | 'update'>) {
  const [generated, setGenerated] = useState<string | null>(null);
  const generate = () => {
    const phrase = generatePassphrase();
    setGenerated(phrase);
    update({ password: phrase, confirmPassword: phrase });
  };
  const shown = generated !== null && state.password === generated ? generated : null;
  return (
    <Stack gap="4" bg="brand.subtle" p="4" rounded="md">
      <Text fontSize="sm">
        Buat kata sandi untuk laporan ini. Kata sandi bersama Nomor Pengaduan diperlukan untuk memantau
        laporan melalui menu Pantau Laporan. Simpan dengan baik karena tidak dapat dipulihkan.
      </Text>
      <HStack gap="3" wrap="wrap">
        <Button type="button" size="sm" variant="outline" onClick={generate}>
          Buat frasa sandi acak
        </Button>
        <Text fontSize="xs" color="fg.muted">
          Frasa sandi dari lima kata acak mudah dicatat dan sulit ditebak.
        </Text>
      </HStack>
      {shown && (
        <Box
          bg="bg.panel"
          borderWidth="1px"
          rounded="md"
          p="3"
          role="status"
          data-testid="generated-passphrase"
        >
          <Text fontSize="sm">Frasa sandi Anda (catat sekarang, tidak dapat dipulihkan):</Text>
          <HStack justify="space-between" wrap="wrap" mt="1">
            <Text
              fontFamily="mono"
              fontWeight="bold"
              fontSize="lg"
              wordBreak="break-all"
              data-testid="passphrase-value"
            >
              {shown}
            </Text>
            <Button
              type="button"
              size="xs"
              variant="ghost"
              onClick={async () => {
                if (await copyText(shown)) notify.success('Frasa sandi berhasil di salin');
              }}
            >
              Salin
            </Button>
          </HStack>
        </Box>
      )}
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <FormField label="Kata sandi pengaduan" error={errors.password} required helper={PASSWORD_HELP}>
          <PasswordInput
            name="password"
            autoComplete="new-password"
            value={state.password}
            onChange={(e) => update({ password: e.target.value })}
          />
        </FormField>
        <FormField label="Konfirmasi kata sandi pengaduan" error={errors.confirmPassword} required>
          <PasswordInput
            name="confirmPassword"
            autoComplete="new-password"
            value={state.confirmPassword}
            onChange={(e) => update({ confirmPassword: e.target.value })}
          />
        </FormField>
      </SimpleGrid>
    </Stack>
  );
}
