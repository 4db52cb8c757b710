import { Box, Container, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export function AuthCard(props: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Container maxW="md">
      <Box bg="bg.panel" borderWidth="1px" rounded="xl" p={{ base: '5', md: '8' }} shadow="sm">
        <Stack gap="2" mb="6">
          <Heading as="h1" size="2xl">
            {props.title}
          </Heading>
          {props.subtitle && <Text color="fg.muted">{props.subtitle}</Text>}
        </Stack>
        {props.children}
      </Box>
    </Container>
  );
}
