import { Button, HStack, Text } from '@chakra-ui/react';

/** Sebelumnya / Halaman x dari y / Berikutnya under a server-paged table. */
export function Pager(props: { page: number; totalPages: number; onPage: (page: number) => void }) {
  const { page, totalPages } = props;
  return (
    <HStack gap="2">
      <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => props.onPage(page - 1)}>
        Sebelumnya
      </Button>
      <Text fontSize="sm" aria-live="polite">
        Halaman {page} dari {totalPages}
      </Text>
      <Button
        size="sm"
        variant="outline"
        disabled={page >= totalPages}
        onClick={() => props.onPage(page + 1)}
      >
        Berikutnya
      </Button>
    </HStack>
  );
}
