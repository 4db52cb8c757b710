import { Box, Button, Flex, HStack, IconButton, Menu, Portal, Stack, Text } from '@chakra-ui/react';
import { can, INSIGHT_PATHS, sideMenu, topBarMenu, USER_TYPE_NAMES } from '@wbs/shared';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useLogout } from '../api/auth.ts';
import { subjectOf, type User } from '../api/types.ts';
import { ErrorBoundary } from '../ui/ErrorBoundary.tsx';
import { MenuIcon } from '../ui/PublicLayout.tsx';
import { NoticeBell } from './NoticeBell.tsx';

/**
 * The /admin shell: side menu by user type, top bar with the bell (staff), the user name, type name
 * and menu.
 */
export function AdminLayout({ user, children }: { user: User; children: ReactNode }) {
  const [nested, navigate] = useLocation(); // relative to the /admin nest
  const location = `/admin${nested === '/' ? '' : nested}`;
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const items = sideMenu(user.userTypeId);
  const here = (path: string) =>
    location === path ||
    location.startsWith(`${path}/`) ||
    // Statistik is the dashboard's second tab (types 2–5): its menu entry is Dashboard's.
    (path === '/admin/dashboard' && location === INSIGHT_PATHS.statistics);
  const typeName = user.userTypeName ?? USER_TYPE_NAMES[user.userTypeId];

  const nav = (
    <Stack as="ul" gap="1" listStyleType="none" ps="0">
      {items.map((item) => (
        <li key={item.path}>
          <Button
            asChild
            w="full"
            justifyContent="flex-start"
            variant={here(item.path) ? 'solid' : 'ghost'}
            size="sm"
          >
            <Link
              href={`~${item.path}`}
              aria-current={here(item.path) ? 'page' : undefined}
              onClick={() => setOpen(false)}
            >
              {item.label}
            </Link>
          </Button>
        </li>
      ))}
    </Stack>
  );

  return (
    <Flex minH="100dvh" direction="column">
      <Flex
        as="header"
        bg="bg.panel"
        borderBottomWidth="1px"
        px={{ base: '3', md: '6' }}
        py="2"
        align="center"
        justify="space-between"
        gap="3"
        position="sticky"
        top="0"
        zIndex="docked"
        // A printed screen (Catatan Pemrosesan Data) is its content alone.
        _print={{ display: 'none' }}
      >
        <HStack gap="2">
          <IconButton
            display={{ base: 'inline-flex', lg: 'none' }}
            variant="outline"
            size="sm"
            aria-label="Menu navigasi"
            aria-expanded={open}
            aria-controls="admin-nav"
            onClick={() => setOpen((o) => !o)}
          >
            <MenuIcon />
          </IconButton>
          <Link href="~/">
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
          </Link>
        </HStack>
        <HStack gap="1">
          {can(subjectOf(user), 'notices:read') && (
            // The bell is an extra: should it ever fail, the top bar stays without it.
            <ErrorBoundary fallback={() => null}>
              <NoticeBell />
            </ErrorBoundary>
          )}
          <Menu.Root
            positioning={{ placement: 'bottom-end' }}
            onSelect={(e) => {
              if (e.value === '/auth/logout') void logout();
              else navigate(`~${e.value}`);
            }}
          >
            <Menu.Trigger asChild>
              <Button variant="ghost" size="sm" h="auto" py="1">
                <Stack gap="0" align="flex-end" textAlign="right">
                  <Text fontWeight="semibold" fontSize="sm">
                    {user.displayName ?? user.username}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {typeName}
                  </Text>
                </Stack>
              </Button>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  {topBarMenu(user.userTypeId).map((item) => (
                    <Menu.Item key={item.path} value={item.path}>
                      {item.label}
                    </Menu.Item>
                  ))}
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
        </HStack>
      </Flex>
      <Flex flex="1" align="stretch">
        <Box
          as="nav"
          aria-label="Menu samping"
          id="admin-nav"
          w={{ base: 'full', lg: '60' }}
          flexShrink={0}
          bg="bg.panel"
          borderRightWidth={{ lg: '1px' }}
          borderBottomWidth={{ base: '1px', lg: '0' }}
          p="3"
          display={{ base: open ? 'block' : 'none', lg: 'block' }}
          position={{ base: 'absolute', lg: 'static' }}
          zIndex={{ base: 'dropdown', lg: 'auto' }}
          _print={{ display: 'none' }}
        >
          {nav}
        </Box>
        <Box as="main" flex="1" minW="0" p={{ base: '3', md: '6' }}>
          {children}
        </Box>
      </Flex>
    </Flex>
  );
}
