import { Box, Flex, HStack, Text } from '@chakra-ui/react';
import { STEP_TITLES } from '../wizardModel.ts';

/** The four steps, the current one marked (only its title on a phone). */
export function StepIndicator({ step }: { step: number }) {
  return (
    <Box as="ol" aria-label="Langkah pengisian" display="grid" gridTemplateColumns="repeat(4, 1fr)" gap="2">
      {STEP_TITLES.map((title, index) => {
        const state = index < step ? 'done' : index === step ? 'current' : 'todo';
        return (
          <HStack
            as="li"
            key={title}
            aria-current={state === 'current' ? 'step' : undefined}
            gap="2"
            align="flex-start"
            listStyleType="none"
          >
            <Flex
              flexShrink={0}
              w="7"
              h="7"
              rounded="full"
              align="center"
              justify="center"
              fontSize="sm"
              fontWeight="bold"
              bg={state === 'todo' ? 'bg.muted' : 'brand.solid'}
              color={state === 'todo' ? 'fg' : 'brand.contrast'}
              aria-hidden="true"
            >
              {index + 1}
            </Flex>
            <Text
              fontSize="sm"
              fontWeight={state === 'current' ? 'semibold' : 'normal'}
              display={{ base: state === 'current' ? 'block' : 'none', md: 'block' }}
            >
              <Box as="span" srOnly>
                {`Langkah ${index + 1}${state === 'done' ? ' (selesai)' : ''}: `}
              </Box>
              {title}
            </Text>
          </HStack>
        );
      })}
    </Box>
  );
}
