import { Box, Heading } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** A titled section of the reporter's case view (a named region, so it can be found by its title). */
export function ReporterPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box
      as="section"
      bg="bg.panel"
      borderWidth="1px"
      rounded="xl"
      p={{ base: '4', md: '6' }}
      aria-label={title}
    >
      <Heading as="h2" size="md" mb="2" color="brand.fg">
        {title}
      </Heading>
      {children}
    </Box>
  );
}
