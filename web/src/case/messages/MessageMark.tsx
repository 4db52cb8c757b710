import { Badge } from '@chakra-ui/react';
import { type MessageMarksReply, messageMarksReply } from '@wbs/shared/api/messages';
import useSWR from 'swr';
import * as v from 'valibot';
import { api } from '../../api/client.ts';

/**
 * The case list's unread marks: for the ids of the page shown, the cases with reporter messages no
 * handler has read yet (GET /cases/message-marks; `null` key when the reader gets no marks).
 */
export function useMessageMarks(
  caseIds: readonly number[] | undefined,
  companyId: number | null,
  enabled: boolean,
) {
  const query =
    enabled && caseIds && caseIds.length > 0
      ? `/cases/message-marks?caseIds=${caseIds.join(',')}${companyId ? `&companyId=${companyId}` : ''}`
      : null;
  const { data } = useSWR<MessageMarksReply>(query, async (path: string) =>
    v.parse(messageMarksReply, await api<unknown>(path)),
  );
  return new Map((data?.items ?? []).map((item) => [item.caseId, item.unreadFromReporter]));
}

export function MessageMark({ unread }: { unread: number | undefined }) {
  if (!unread) return null;
  return (
    <Badge colorPalette="orange" variant="solid" size="sm" ml="2" data-testid="message-mark">
      {unread} pesan baru
    </Badge>
  );
}
