/**
 * The bell of the top bar (staff types 1–5): how many notices are unread, and the list of them in a
 * panel (a side sheet on a wide screen, the whole screen on a phone). The first page is asked for
 * every minute and when the window gets focus again; a failed ask leaves the bell as it was, without
 * a snackbar every minute. A row opens its case (/admin/case/{id}, as the case list does) and is
 * marked read.
 */
import {
  Box,
  Button,
  Link as ChakraLink,
  Dialog,
  Flex,
  IconButton,
  Portal,
  Stack,
  Text,
  VisuallyHidden,
} from '@chakra-ui/react';
import { format } from '@wbs/shared/messages';
import { NOTICE_PREFERENCES_PATH } from '@wbs/shared/navigation';
import { NOTICE_KIND_LABELS } from '@wbs/shared/notices';
import { useState } from 'react';
import useSWRInfinite from 'swr/infinite';
import { Link, useLocation } from 'wouter';
import { type ApiReply, api, read } from '../api/client.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { notify } from '../ui/toaster.tsx';
import { bellLabel, NOTICE_TEXTS, noticeTime } from './notices.ts';

type Page = ApiReply<'get', '/api/v1/notices'>;
type Notice = Page['items'][number];

/** How often the unread count is asked for while the page is visible. */
export const BELL_REFRESH_MS = 60_000;

/** One page of the list: the newest, or those older than `before`. */
const pageQuery = (before: number | null) =>
  read('/api/v1/notices', before === null ? {} : { params: { query: { before: String(before) } } });

/** The pages' keys: the first, then each after the oldest notice of the page before while there is `more`. */
function pageKey(index: number, previous: Page | null): [string, number | null] | null {
  if (index === 0) return [pageQuery(null).key as string, null];
  const oldest = previous?.items.at(-1);
  if (!previous?.more || !oldest) return null;
  return [pageQuery(oldest.id).key as string, oldest.id];
}

function useNotices() {
  return useSWRInfinite<Page, unknown>(
    pageKey,
    ([, before]: [string, number | null]) => pageQuery(before).load(),
    {
      refreshInterval: BELL_REFRESH_MS,
      revalidateOnFocus: true,
      // A later page is asked for again only when the one before it changed (new notices came in).
      revalidateAll: false,
      // The bell says nothing when it cannot ask: no snackbar each minute while the gateway is away.
      onError: () => undefined,
    },
  );
}

function BellIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

function NoticeRow(props: { notice: Notice; onOpen: (notice: Notice) => void }) {
  const { notice } = props;
  const content = (
    <Flex gap="3" align="flex-start" w="full" textAlign="left">
      <Box
        aria-hidden="true"
        mt="1.5"
        boxSize="2"
        flexShrink={0}
        rounded="full"
        bg={notice.read ? 'transparent' : 'brand.solid'}
      />
      <Stack gap="0.5" minW="0" flex="1">
        <Text fontWeight={notice.read ? 'normal' : 'semibold'} whiteSpace="normal">
          {!notice.read && <VisuallyHidden>{`${NOTICE_TEXTS.unread}: `}</VisuallyHidden>}
          {NOTICE_KIND_LABELS[notice.kind] ?? notice.kind}
        </Text>
        {notice.companyName && (
          <Text fontSize="sm" color="fg.muted" whiteSpace="normal">
            {notice.companyName}
          </Text>
        )}
        <Text fontSize="xs" color="fg.muted">
          <time dateTime={`${notice.createdAt.slice(0, 19)}+07:00`}>{noticeTime(notice.createdAt)}</time>
        </Text>
      </Stack>
    </Flex>
  );
  // A read notice about no case leads nowhere: it is text, not a button.
  if (notice.read && notice.caseId === null) {
    return (
      <Box px="3" py="2">
        {content}
      </Box>
    );
  }
  return (
    <Button
      variant="ghost"
      w="full"
      h="auto"
      px="3"
      py="2"
      justifyContent="flex-start"
      bg={notice.read ? undefined : 'brand.subtle'}
      onClick={() => props.onOpen(notice)}
    >
      {content}
    </Button>
  );
}

export function NoticeBell() {
  const [open, setOpen] = useState(false);
  const [, navigate] = useLocation();
  const notices = useNotices();
  const pages = notices.data ?? [];
  const unread = pages[0]?.unread ?? 0;
  const items = pages.flatMap((page) => page.items);
  const more = pages.at(-1)?.more === true;
  const loadingMore = notices.isValidating && notices.size > pages.length;

  /** Marks notices read here at once and at the gateway; the gateway's count is the one kept. */
  const markRead = async (ids: number[] | 'all') => {
    const isMarked = (notice: Notice) => ids === 'all' || ids.includes(notice.id);
    const marked = (list: Page[] | undefined, count?: number) =>
      list?.map((page) => ({
        ...page,
        unread: count ?? Math.max(0, page.unread - page.items.filter((n) => isMarked(n) && !n.read).length),
        items: page.items.map((n) => (isMarked(n) ? { ...n, read: true } : n)),
      }));
    void notices.mutate((current) => marked(current, ids === 'all' ? 0 : undefined), { revalidate: false });
    try {
      const reply = await api.POST('/api/v1/notices/read', { body: ids === 'all' ? { all: true } : { ids } });
      await notices.mutate((current) => marked(current, reply.unread), { revalidate: false });
    } catch (error) {
      notify.problem(error);
      await notices.mutate();
    }
  };

  const openNotice = (notice: Notice) => {
    if (notice.caseId !== null) {
      setOpen(false);
      navigate(`~/admin/case/${notice.caseId}`);
    }
    if (!notice.read) void markRead([notice.id]);
  };

  const close = () => {
    setOpen(false);
    // Only the first page is kept asking every minute once the list is closed.
    if (notices.size > 1) void notices.setSize(1);
  };

  return (
    <>
      <IconButton
        variant="ghost"
        size="sm"
        position="relative"
        aria-label={bellLabel(unread)}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <BellIcon />
        {unread > 0 && (
          <Box
            as="span"
            aria-hidden="true"
            position="absolute"
            top="0"
            insetEnd="0"
            minW="4"
            h="4"
            px="1"
            rounded="full"
            bg="red.solid"
            color="white"
            fontSize="2xs"
            fontWeight="bold"
            lineHeight="4"
            textAlign="center"
          >
            {unread > 99 ? '99+' : unread}
          </Box>
        )}
      </IconButton>
      <Dialog.Root
        open={open}
        onOpenChange={(e) => {
          if (!e.open) close();
        }}
        placement="top"
        scrollBehavior="inside"
        lazyMount
        unmountOnExit
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner justifyContent={{ base: 'center', md: 'flex-end' }} pe={{ md: '4' }}>
            <Dialog.Content
              maxW={{ base: '100dvw', md: 'md' }}
              h={{ base: '100dvh', md: 'auto' }}
              maxH={{ base: '100dvh', md: 'calc(100dvh - 6rem)' }}
              my={{ base: '0', md: '16' }}
              mx="0"
              rounded={{ base: '0', md: 'l3' }}
            >
              <Dialog.Header alignItems="center" justifyContent="space-between" px="4" pt="4" pb="2">
                <Dialog.Title>{NOTICE_TEXTS.title}</Dialog.Title>
                <Dialog.CloseTrigger asChild position="static">
                  <Button variant="ghost" size="sm">
                    {NOTICE_TEXTS.close}
                  </Button>
                </Dialog.CloseTrigger>
              </Dialog.Header>
              <Flex px="4" pb="2" gap="2" wrap="wrap" justify="space-between" align="center">
                <Text fontSize="sm" color="fg.muted">
                  {unread > 0 ? format(NOTICE_TEXTS.unreadCount, { count: unread }) : NOTICE_TEXTS.allRead}
                </Text>
                <Button
                  size="xs"
                  variant="outline"
                  disabled={unread === 0}
                  onClick={() => void markRead('all')}
                >
                  {NOTICE_TEXTS.markAll}
                </Button>
              </Flex>
              <Dialog.Body px="2" pt="0" pb="2">
                {pages.length === 0 && notices.isLoading && <PageSpinner />}
                {pages.length === 0 && !notices.isLoading && notices.error !== undefined && (
                  <Stack gap="2" align="flex-start" px="2" py="4">
                    <Text>{NOTICE_TEXTS.loadFailed}</Text>
                    <Button size="sm" variant="outline" onClick={() => void notices.mutate()}>
                      {NOTICE_TEXTS.retry}
                    </Button>
                  </Stack>
                )}
                {pages.length > 0 && items.length === 0 && (
                  <Text px="2" py="6" textAlign="center" color="fg.muted">
                    {NOTICE_TEXTS.empty}
                  </Text>
                )}
                {items.length > 0 && (
                  <Stack as="ul" gap="1" listStyleType="none" ps="0" aria-label={NOTICE_TEXTS.title}>
                    {items.map((notice) => (
                      <li key={notice.id}>
                        <NoticeRow notice={notice} onOpen={openNotice} />
                      </li>
                    ))}
                  </Stack>
                )}
                {more && (
                  <Flex justify="center" pt="2">
                    <Button
                      size="sm"
                      variant="outline"
                      loading={loadingMore}
                      onClick={() => void notices.setSize(notices.size + 1)}
                    >
                      {NOTICE_TEXTS.more}
                    </Button>
                  </Flex>
                )}
              </Dialog.Body>
              <Dialog.Footer justifyContent="flex-start" px="4" pt="2" pb="4" borderTopWidth="1px">
                <ChakraLink asChild color="brand.fg" textDecoration="underline" fontSize="sm">
                  <Link href={`~${NOTICE_PREFERENCES_PATH}`} onClick={close}>
                    {NOTICE_TEXTS.preferencesLink}
                  </Link>
                </ChakraLink>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </>
  );
}
