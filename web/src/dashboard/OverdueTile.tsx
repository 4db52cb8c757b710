/**
 * The dashboard's overdue tile: reports whose running handling step is past its deadline
 * now, per company of the user's scope, each a link to the case list filtered to them. The gateway
 * counts (GET /dashboard/overdue); the tile only shows.
 */
import { Box, Heading, Link, Stack, Table, Text } from '@chakra-ui/react';
import { type DashboardOverdueReply, dashboardOverdueReply } from '@wbs/shared/api/dashboard';
import { isoToDisplay } from '@wbs/shared/dates';
import * as v from 'valibot';
import { Link as RouteLink } from 'wouter';
import { read } from '../api/client.ts';
import { useApi } from '../api/useApi.ts';
import { rememberCompany } from './companyChoice.ts';
import { TEXTS } from './texts.ts';

/** Overdue reports can be of any age: the list opens on a period wide enough to hold them all. */
export const OVERDUE_LIST_FROM = '2000-01-01';

/** The case list filtered to overdue reports; linked with wouter's `~` (absolute, out of the /admin nest). */
export function overdueListHref(today: string): string {
  return `/admin/case?${new URLSearchParams({ overdue: '1', from: OVERDUE_LIST_FROM, to: today })}`;
}

export function OverdueTile({ username, partnerView }: { username: string; partnerView: boolean }) {
  const reply = useApi(read('/api/v1/dashboard/overdue'));
  const { error, isLoading } = reply;
  // Only a reply of the contract is shown (anything else reads as a failure to load).
  const data: DashboardOverdueReply | undefined = v.is(dashboardOverdueReply, reply.data)
    ? reply.data
    : undefined;
  const total = data?.companies.reduce((sum, c) => sum + c.overdue, 0);
  const late = (total ?? 0) > 0;
  return (
    <Box
      as="section"
      aria-label={TEXTS.overdueTitle}
      aria-busy={isLoading}
      bg="bg.panel"
      borderWidth="1px"
      borderColor={late ? 'red.muted' : undefined}
      rounded="xl"
      p={{ base: '4', md: '5' }}
    >
      <Stack gap="2">
        <Heading as="h2" size="md" color={late ? 'red.fg' : 'brand.fg'}>
          {TEXTS.overdueTitle}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {data ? `${TEXTS.overdueScope} ${isoToDisplay(data.today)}` : TEXTS.overdueScope}
        </Text>
        {(error || (reply.data !== undefined && !data)) && !data && (
          <Text color="fg.muted">{TEXTS.loadFailed}</Text>
        )}
        {data && !partnerView && (
          <Link asChild fontSize="4xl" fontWeight="bold" lineHeight="1.1" color={late ? 'red.fg' : undefined}>
            <RouteLink
              href={`~${overdueListHref(data.today)}`}
              aria-label={`${TEXTS.overdueTitle}: ${total}`}
            >
              {total}
            </RouteLink>
          </Link>
        )}
        {data && partnerView && (
          <Table.Root size="sm" aria-label={TEXTS.overdueTitle}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{TEXTS.company}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{TEXTS.count}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {data.companies.map((company) => (
                <Table.Row key={company.companyId}>
                  <Table.Cell>{company.companyName ?? `#${company.companyId}`}</Table.Cell>
                  <Table.Cell textAlign="end" fontWeight={company.overdue > 0 ? 'bold' : undefined}>
                    {company.overdue > 0 ? (
                      <Link asChild color="red.fg">
                        <RouteLink
                          href={`~${overdueListHref(data.today)}`}
                          onClick={() => rememberCompany(username, company.companyId)}
                        >
                          {company.overdue}
                        </RouteLink>
                      </Link>
                    ) : (
                      company.overdue
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
        {data?.companies.some((c) => !c.complete) && (
          <Text fontSize="xs" color="fg.muted">
            {TEXTS.overduePartial}
          </Text>
        )}
      </Stack>
    </Box>
  );
}
