import { Box, Button, Container, Flex, HStack, IconButton, Stack, Text } from '@chakra-ui/react';
import { reportButtonTarget, targetAfterLogin } from '@wbs/shared/landing';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useSession } from '../api/session.ts';
import { subjectOf } from '../api/types.ts';

type NavItem = { label: string; to: string };

/** Header with Beranda, Pantau Laporan, Buat Laporan, and Masuk (guest) or Dashboard (signed in). */
export function PublicLayout({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  // Buat Laporan only for those spec §2's Laporkan rule sends to the wizard (guests, types 2 and 3,
  // privileged 4 and 5): for everyone else it would lead elsewhere.
  const canFile = reportButtonTarget(subjectOf(user)) === '/case/create';
  const items: NavItem[] = [
    { label: 'Beranda', to: '/' },
    { label: 'Pantau Laporan', to: '/admin/checkcase' },
    ...(canFile ? [{ label: 'Buat Laporan', to: '/case/create' }] : []),
  ];
  const account: NavItem = user
    ? { label: 'Dashboard', to: targetAfterLogin(user.userTypeId) }
    : { label: 'Masuk', to: '/auth/login' };

  const link = (item: NavItem, solid = false) => (
    <Button
      key={item.label}
      asChild
      size="sm"
      variant={solid ? 'solid' : location === item.to ? 'subtle' : 'ghost'}
      justifyContent={{ base: 'flex-start', md: 'center' }}
    >
      <Link
        href={item.to}
        aria-current={location === item.to ? 'page' : undefined}
        onClick={() => setOpen(false)}
      >
        {item.label}
      </Link>
    </Button>
  );

  return (
    <Flex direction="column" minH="100dvh">
      <Box as="header" bg="bg.panel" borderBottomWidth="1px" position="sticky" top="0" zIndex="docked">
        <Container maxW="6xl" py="3">
          <Flex align="center" justify="space-between" gap="4">
            <Link href="/">
              <HStack gap="2">
                <Box
                  bg="brand.solid"
                  color="brand.contrast"
                  rounded="md"
                  px="2"
                  py="1"
                  fontWeight="bold"
                  fontSize="sm"
                >
                  WBS
                </Box>
                <Text fontWeight="semibold" display={{ base: 'none', sm: 'block' }} color="brand.fg">
                  Whistleblowing System
                </Text>
              </HStack>
            </Link>
            <HStack as="nav" aria-label="Navigasi utama" gap="1" display={{ base: 'none', md: 'flex' }}>
              {items.map((item) => link(item))}
              {link(account, true)}
            </HStack>
            <IconButton
              display={{ base: 'inline-flex', md: 'none' }}
              variant="outline"
              size="sm"
              aria-label="Menu"
              aria-expanded={open}
              aria-controls="mobile-nav"
              onClick={() => setOpen((o) => !o)}
            >
              <MenuIcon />
            </IconButton>
          </Flex>
          {open && (
            <Stack
              id="mobile-nav"
              as="nav"
              aria-label="Navigasi utama"
              gap="1"
              pt="3"
              display={{ md: 'none' }}
            >
              {items.map((item) => link(item))}
              {link(account, true)}
            </Stack>
          )}
        </Container>
      </Box>
      <Box as="main" flex="1" py={{ base: '4', md: '8' }}>
        {children}
      </Box>
      <Box as="footer" borderTopWidth="1px" bg="bg.panel" py="4">
        <Container maxW="6xl">
          <Text fontSize="sm" color="fg.muted">
            Whistleblowing System — laporan Anda dijaga kerahasiaannya.
          </Text>
        </Container>
      </Box>
    </Flex>
  );
}

export function MenuIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d="M3 6h18M3 12h18M3 18h18" />
    </svg>
  );
}
