import { Badge } from '@chakra-ui/react';

/** A case list row's unread reporter messages (the list's own `unreadFromReporter`). */
export function MessageMark({ unread }: { unread: number | null }) {
  if (!unread) return null;
  return (
    <Badge colorPalette="orange" variant="solid" size="sm" ml="2" data-testid="message-mark">
      {unread} pesan baru
    </Badge>
  );
}
