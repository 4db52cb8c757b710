import { Center, Spinner } from '@chakra-ui/react';
import { UI_MESSAGES } from '@wbs/shared/messages';

export function PageSpinner() {
  return (
    <Center py="16" role="status" aria-label={UI_MESSAGES.loading}>
      <Spinner size="lg" color="brand.solid" />
    </Center>
  );
}
