import { Badge, Box, Button, HStack, Stack, Text, Textarea } from '@chakra-ui/react';
import { MESSAGE_MAX_LENGTH, type Message, messageText } from '@wbs/shared/api/messages';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { ApiError } from '../../api/client.ts';
import { FormField } from '../../ui/FormField.tsx';
import { PageSpinner } from '../../ui/PageSpinner.tsx';
import { notify } from '../../ui/toaster.tsx';
import { validate } from '../../ui/validate.ts';
import { formatDateTime } from '../detail.ts';
import { isCaseSearchKey } from '../search.ts';
import { accessKey, type CaseAccess, fetchConversation, newIdempotencyKey, sendMessage } from './access.ts';
import { MESSAGE_TEXTS } from './texts.ts';

/**
 * Pesan: the conversation of one case, newest last, and (for whoever may write) a box to answer.
 * What is new to this reader's side is marked once; the gateway clears the mark as it answers.
 * A message is sent with one Idempotency-Key that every retry reuses, and the typed text stays in
 * the box until the server has stored it.
 */
export function MessagesPanel(props: {
  access: CaseAccess;
  audience: 'reporter' | 'staff';
  canWrite: boolean;
  /** The conversation the page already read for this case (shown as it is, not read again). */
  initialMessages?: Message[] | null;
  /** Told of every conversation shown (the reporter's copy holds what the tab shows). */
  onMessages?: (messages: Message[]) => void;
}) {
  const { access } = props;
  const [messages, setMessages] = useState<Message[] | null>(props.initialMessages ?? null);
  const [failed, setFailed] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  // One key per message being written: a retry after a lost answer is the same message.
  const pendingKey = useRef<string | null>(null);
  const endRef = useRef<HTMLDivElement>(null);

  const accessRef = useRef(access);
  accessRef.current = access;
  const { mutate } = useSWRConfig();
  // Reading (or answering) may clear the case list's unread marks (its rows carry them): refetch the
  // list when shown next.
  const forgetMarks = useCallback(() => mutate(isCaseSearchKey, undefined, { revalidate: true }), [mutate]);
  const key = accessKey(access);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads when the case (key) changes
  const load = useCallback(async () => {
    setFailed(false);
    try {
      setMessages((await fetchConversation(accessRef.current)).messages);
      if (props.audience === 'staff') void forgetMarks();
    } catch (e) {
      setFailed(true);
      notify.problem(e);
    }
  }, [key]);

  // A conversation the page already read keeps its marks: reading it again would clear them unseen.
  const knownKey = useRef(props.initialMessages ? key : null);
  useEffect(() => {
    if (knownKey.current === key) return;
    void load();
  }, [load, key]);

  const onMessagesRef = useRef(props.onMessages);
  onMessagesRef.current = props.onMessages;
  useEffect(() => {
    if (messages) onMessagesRef.current?.(messages);
  }, [messages]);

  useEffect(() => {
    if (messages?.length) endRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [messages]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validate(messageText, text);
    if (!checked.ok) {
      setError(Object.values(checked.errors)[0] ?? MESSAGE_TEXTS.required);
      return;
    }
    setError(undefined);
    setSending(true);
    pendingKey.current ??= newIdempotencyKey();
    try {
      const reply = await sendMessage(access, checked.value, pendingKey.current);
      pendingKey.current = null;
      setText('');
      if (props.audience === 'staff') void forgetMarks();
      // What was marked before stays marked until the next visit: the reader saw it only now.
      setMessages((before) => {
        const wasNew = new Set((before ?? []).filter((m) => m.isNew).map((m) => m.id));
        return reply.messages.map((m) => ({ ...m, isNew: wasNew.has(m.id) }));
      });
      notify.success(MESSAGE_TEXTS.sent);
    } catch (e) {
      // A refused text (e.g. a conflict) needs a new key once the writer changes it.
      if (e instanceof ApiError && e.status !== 0 && e.status < 500) pendingKey.current = null;
      if (e instanceof ApiError && e.fieldErrors.text) setError(e.fieldErrors.text);
      else notify.problem(e);
    } finally {
      setSending(false);
    }
  }

  if (!messages) {
    if (!failed) return <PageSpinner />;
    return (
      <Stack gap="3" pt="4" align="flex-start">
        <Text color="fg.muted">{MESSAGE_TEXTS.loadFailed}</Text>
        <Button size="sm" variant="outline" onClick={() => void load()}>
          {MESSAGE_TEXTS.retry}
        </Button>
      </Stack>
    );
  }

  const newCount = messages.filter((m) => m.isNew).length;
  return (
    <Stack gap="4" pt="2">
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '3', md: '5' }}>
        {props.audience === 'reporter' && (
          <Text fontSize="sm" color="fg.muted" mb="3">
            {MESSAGE_TEXTS.reporterIntro}
          </Text>
        )}
        {newCount > 0 && (
          <Text fontSize="sm" fontWeight="medium" color="brand.fg" mb="3" role="status">
            {props.audience === 'reporter'
              ? `${newCount} ${MESSAGE_TEXTS.newReplies}`
              : `${newCount} ${MESSAGE_TEXTS.unreadFromReporter}`}
          </Text>
        )}
        {messages.length === 0 ? (
          <Text color="fg.muted">{MESSAGE_TEXTS.empty}</Text>
        ) : (
          <Stack as="ol" gap="3" listStyleType="none" aria-label="Percakapan">
            {messages.map((message) => (
              <MessageItem key={message.id} message={message} audience={props.audience} />
            ))}
          </Stack>
        )}
        <div ref={endRef} />
      </Box>
      {props.canWrite ? (
        <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '3', md: '5' }}>
          <form onSubmit={submit} noValidate>
            <Stack gap="3">
              <FormField
                label={MESSAGE_TEXTS.writeLabel}
                error={error}
                helper={`${text.length}/${MESSAGE_MAX_LENGTH}`}
              >
                <Textarea
                  name="message"
                  rows={4}
                  value={text}
                  maxLength={MESSAGE_MAX_LENGTH}
                  placeholder={MESSAGE_TEXTS.placeholder}
                  onChange={(e) => {
                    setText(e.target.value);
                    pendingKey.current = null;
                  }}
                />
              </FormField>
              <HStack justify="flex-end">
                <Button type="submit" loading={sending} disabled={sending}>
                  {MESSAGE_TEXTS.send}
                </Button>
              </HStack>
            </Stack>
          </form>
        </Box>
      ) : (
        <Text fontSize="sm" color="fg.muted">
          {MESSAGE_TEXTS.readOnly}
        </Text>
      )}
    </Stack>
  );
}

function MessageItem({ message, audience }: { message: Message; audience: 'reporter' | 'staff' }) {
  const mine = (audience === 'reporter') === (message.from === 'reporter');
  return (
    <Box
      as="li"
      data-testid="message"
      data-new={message.isNew ? 'true' : undefined}
      alignSelf={mine ? 'flex-end' : 'flex-start'}
      maxW={{ base: '100%', md: '80%' }}
      bg={mine ? 'brand.subtle' : 'bg.muted'}
      borderWidth={message.isNew ? '2px' : '1px'}
      borderColor={message.isNew ? 'brand.solid' : 'border'}
      rounded="lg"
      px="3"
      py="2"
    >
      <HStack gap="2" wrap="wrap" mb="1">
        <Text fontWeight="semibold" fontSize="sm">
          {message.authorLabel}
        </Text>
        {message.authorRole && (
          <Text fontSize="xs" color="fg.muted">
            ({message.authorRole})
          </Text>
        )}
        <Text fontSize="xs" color="fg.muted">
          {formatDateTime(message.createdAt)}
        </Text>
        {message.isNew && (
          <Badge colorPalette="orange" variant="solid" size="sm">
            {audience === 'reporter' ? MESSAGE_TEXTS.newBadge : MESSAGE_TEXTS.unreadBadge}
          </Badge>
        )}
      </HStack>
      <Text whiteSpace="pre-wrap" wordBreak="break-word">
        {message.text}
      </Text>
    </Box>
  );
}
