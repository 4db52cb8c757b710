import { Box, Button, Heading, Input, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { profileSchema, USER_TYPES } from '@wbs/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { useSWRConfig } from 'swr';
import { type ApiReply, api, read } from '../api/client.ts';
import { SESSION_KEY } from '../api/session.ts';
import type { User } from '../api/types.ts';
import { useApi } from '../api/useApi.ts';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { FormField } from '../ui/FormField.tsx';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import { useFormErrors } from '../ui/useFormErrors.ts';
import { validate } from '../ui/validate.ts';

type Profile = ApiReply<'get', '/api/v1/profile'>;

/** Profil: fields for user type 6 only (Nama Pengguna, Sembunyikan identitas?). */
export function ProfilePage({ user }: { user: User }) {
  const isWhistleblower = user.userTypeId === USER_TYPES.WHISTLEBLOWER;
  const { data, isLoading, mutate } = useApi(isWhistleblower ? read('/api/v1/profile') : null);
  const [values, setValues] = useState<Profile>({ fullName: '', hideIdentity: false });
  const { errors, setErrors, showServer, clearField } = useFormErrors();
  const { mutate: mutateCache } = useSWRConfig();
  const confirm = useConfirm();
  const loading = useLoading();

  useEffect(() => {
    if (data) setValues({ fullName: data.fullName ?? '', hideIdentity: Boolean(data.hideIdentity) });
  }, [data]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const result = validate(profileSchema, values);
    setErrors(result.errors);
    if (!result.ok) return;
    if (
      !(await confirm({
        title: 'Simpan Profil',
        message: 'Anda yakin ingin menyimpan profil ?',
        actionLabel: 'Simpan',
      }))
    )
      return;
    loading.show();
    try {
      const reply = await api.PUT('/api/v1/profile', { body: result.value });
      notify.success(reply.message);
      // The gateway renewed the session with the saved name: the top bar reads it from /session.
      await Promise.all([mutate(), mutateCache(SESSION_KEY)]);
    } catch (error) {
      showServer(error);
      notify.problem(error);
    } finally {
      loading.hide();
    }
  }

  return (
    <Stack gap="5" maxW="lg">
      <Heading as="h1" size="2xl">
        Profil
      </Heading>
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '4', md: '6' }}>
        <Stack gap="1" mb={isWhistleblower ? '5' : '0'}>
          <Text fontWeight="semibold">{user.displayName ?? user.username}</Text>
          <Text color="fg.muted" fontSize="sm">
            {user.userTypeName} · {user.email ?? '-'}
          </Text>
        </Stack>
        {isWhistleblower &&
          (isLoading ? (
            <PageSpinner />
          ) : (
            <form onSubmit={submit} noValidate>
              <Stack gap="4">
                <FormField label="Nama Pengguna" error={errors.fullName}>
                  <Input
                    name="fullName"
                    value={values.fullName}
                    maxLength={50}
                    onChange={(e) => {
                      clearField('fullName');
                      setValues((v) => ({ ...v, fullName: e.target.value }));
                    }}
                  />
                </FormField>
                <RadioGroup.Root
                  value={values.hideIdentity ? 'ya' : 'tidak'}
                  onValueChange={(e) => setValues((v) => ({ ...v, hideIdentity: e.value === 'ya' }))}
                  name="hideIdentity"
                  aria-labelledby="hide-identity-label"
                >
                  <Text id="hide-identity-label" fontWeight="medium" fontSize="sm" mb="2">
                    Sembunyikan identitas?
                  </Text>
                  <Stack direction="row" gap="6">
                    {(['ya', 'tidak'] as const).map((value) => (
                      <RadioGroup.Item key={value} value={value}>
                        <RadioGroup.ItemHiddenInput />
                        <RadioGroup.ItemIndicator />
                        <RadioGroup.ItemText>{value === 'ya' ? 'Ya' : 'Tidak'}</RadioGroup.ItemText>
                      </RadioGroup.Item>
                    ))}
                  </Stack>
                </RadioGroup.Root>
                <Button type="submit" alignSelf="flex-start">
                  Simpan
                </Button>
              </Stack>
            </form>
          ))}
      </Box>
    </Stack>
  );
}
