/**
 * Notifikasi (staff types 1–5): how each kind of notice reaches the user's mailbox: at once, in the
 * daily digest at 07.00 WIB, or not at all. The bell shows every notice whatever is chosen. A
 * security notice is always mailed at once: its row is shown fixed at Segera.
 */
import { Alert, Box, Button, Flex, Heading, RadioGroup, Stack, Text } from '@chakra-ui/react';
import {
  MAIL_MODE_LABELS,
  MAIL_MODES,
  type MailMode,
  NOTICE_KIND_LABELS,
  type NoticeKind,
} from '@wbs/shared/notices';
import { type FormEvent, useEffect, useState } from 'react';
import { api, read } from '../api/client.ts';
import { useApi } from '../api/useApi.ts';
import { useLoading } from '../ui/LoadingOverlay.tsx';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import { PREFERENCE_TEXTS } from './notices.ts';

type Choices = Partial<Record<NoticeKind, MailMode>>;

export default function NoticePreferencesPage() {
  const { data, error, isLoading, mutate } = useApi(read('/api/v1/notice-preferences'));
  const [choices, setChoices] = useState<Choices>({});
  const loading = useLoading();

  useEffect(() => {
    if (data) setChoices(Object.fromEntries(data.items.map((item) => [item.kind, item.mail])));
  }, [data]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!data) return;
    // A locked kind is not the user's to choose (the gateway ignores it anyway): it is not sent.
    const items = data.items
      .filter((item) => !item.locked)
      .map((item) => ({ kind: item.kind, mail: choices[item.kind] ?? item.mail }));
    if (items.length === 0) return;
    loading.show();
    try {
      const reply = await api.PUT('/api/v1/notice-preferences', { body: { items } });
      notify.success(reply.message);
      await mutate();
    } catch (failure) {
      notify.problem(failure);
    } finally {
      loading.hide();
    }
  }

  return (
    <Stack gap="5" maxW="4xl">
      <Heading as="h1" size="2xl">
        {PREFERENCE_TEXTS.title}
      </Heading>
      <Text color="fg.muted">{PREFERENCE_TEXTS.intro}</Text>
      {data && !data.hasEmail && (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Description>{PREFERENCE_TEXTS.noEmail}</Alert.Description>
        </Alert.Root>
      )}
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '4', md: '6' }}>
        {isLoading && <PageSpinner />}
        {!isLoading && !data && error !== undefined && (
          <Stack gap="3" align="flex-start">
            <Text>{PREFERENCE_TEXTS.loadFailed}</Text>
            <Button size="sm" variant="outline" onClick={() => void mutate()}>
              {PREFERENCE_TEXTS.retry}
            </Button>
          </Stack>
        )}
        {data && (
          <form onSubmit={submit} noValidate aria-label={PREFERENCE_TEXTS.title}>
            <Stack gap="0">
              {data.items.map((item, index) => {
                const labelId = `notice-kind-${item.kind}`;
                const noteId = `notice-kind-${item.kind}-note`;
                return (
                  <Flex
                    key={item.kind}
                    direction={{ base: 'column', md: 'row' }}
                    gap={{ base: '2', md: '4' }}
                    py="3"
                    borderTopWidth={index === 0 ? '0' : '1px'}
                  >
                    <Stack gap="0.5" flex="1" minW="0">
                      <Text id={labelId} fontWeight="medium">
                        {NOTICE_KIND_LABELS[item.kind]}
                      </Text>
                      {item.locked && (
                        <Text id={noteId} fontSize="sm" color="fg.muted">
                          {PREFERENCE_TEXTS.locked}
                        </Text>
                      )}
                    </Stack>
                    <RadioGroup.Root
                      name={item.kind}
                      size="sm"
                      value={item.locked ? 'immediate' : (choices[item.kind] ?? item.mail)}
                      disabled={item.locked}
                      onValueChange={(e) => {
                        const mail = MAIL_MODES.find((mode) => mode === e.value);
                        if (mail) setChoices((current) => ({ ...current, [item.kind]: mail }));
                      }}
                      aria-labelledby={labelId}
                      aria-describedby={item.locked ? noteId : undefined}
                    >
                      <Flex
                        direction={{ base: 'column', sm: 'row' }}
                        gap={{ base: '2', sm: '5' }}
                        wrap="wrap"
                      >
                        {MAIL_MODES.map((mode) => (
                          <RadioGroup.Item key={mode} value={mode}>
                            <RadioGroup.ItemHiddenInput />
                            <RadioGroup.ItemIndicator />
                            <RadioGroup.ItemText>{MAIL_MODE_LABELS[mode]}</RadioGroup.ItemText>
                          </RadioGroup.Item>
                        ))}
                      </Flex>
                    </RadioGroup.Root>
                  </Flex>
                );
              })}
              <Button type="submit" alignSelf="flex-start" mt="4">
                {PREFERENCE_TEXTS.save}
              </Button>
            </Stack>
          </form>
        )}
      </Box>
    </Stack>
  );
}
