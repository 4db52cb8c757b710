/**
 * The administrator's landing screen: a warning while cases of the disposal register wait for their
 * destruction longer than the grace period. An extra: when its count cannot be read, it stays away
 * quietly rather than adding a snackbar to the landing screen.
 */
import { Alert, Link } from '@chakra-ui/react';
import { format } from '@wbs/shared/messages';
import { Link as RouterLink } from 'wouter';
import { useApi } from '../../api/useApi.ts';
import { disposalSummary } from './calls.ts';
import { BANNER_TEXTS } from './texts.ts';

const quiet = () => undefined;

export function OverdueDisposalBanner() {
  const { data } = useApi(disposalSummary(), { onError: quiet });
  if (!data || data.overdue <= 0) return null;
  return (
    <Alert.Root status="warning" mb="5" _print={{ display: 'none' }}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{format(BANNER_TEXTS.overdue, { count: data.overdue })}</Alert.Title>
        <Alert.Description>
          <Link asChild color="fg" textDecoration="underline" fontWeight="semibold">
            <RouterLink href="~/admin/pemusnahan">{BANNER_TEXTS.open}</RouterLink>
          </Link>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
