/**
 * Ringkasan (/admin/dashboard) and Statistik (/admin/statistik): the dashboard's two parts, for
 * types 2–5, as links, so each has its own address and history entry.
 */
import { Box, HStack } from '@chakra-ui/react';
import { INSIGHT_PATHS } from '@wbs/shared/navigation';
import { Link } from 'wouter';

const TABS = [
  { label: 'Ringkasan', path: '/admin/dashboard' },
  { label: 'Statistik', path: INSIGHT_PATHS.statistics },
] as const;

export function DashboardTabs({ current }: { current: (typeof TABS)[number]['path'] }) {
  return (
    <HStack as="nav" aria-label="Bagian dashboard" gap="0" borderBottomWidth="1px">
      {TABS.map((tab) => {
        const active = tab.path === current;
        return (
          <Box
            asChild
            key={tab.path}
            px="4"
            py="2"
            mb="-1px"
            borderBottomWidth="2px"
            borderColor={active ? 'brand.solid' : 'transparent'}
            fontWeight={active ? 'semibold' : 'medium'}
            color={active ? 'brand.fg' : 'fg.muted'}
            _hover={{ color: 'brand.fg' }}
          >
            <Link href={`~${tab.path}`} aria-current={active ? 'page' : undefined}>
              {tab.label}
            </Link>
          </Box>
        );
      })}
    </HStack>
  );
}
