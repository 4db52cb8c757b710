/**
 * Retensi Data: each company's retention period in months. The administrator, who is also the data
 * protection officer, gives a company its own period or returns it to the group default, as on
 * Tenggat Penanganan. The gateway's next scan applies it.
 */
import { Heading, Stack, Text } from '@chakra-ui/react';
import { RETENTION_MONTHS_RANGE } from '@wbs/shared/retention';
import { useApi } from '../../api/useApi.ts';
import { CompanySettingsTable } from '../CompanySettingsTable.tsx';
import { resetRetentionPeriod, retentionPeriods, setRetentionPeriod } from './calls.ts';
import { RETENTION_TEXTS as T } from './texts.ts';

const FIELDS = [{ name: 'months', label: T.months, range: RETENTION_MONTHS_RANGE }] as const;

export default function RetentionPeriodsPage() {
  const { data, error, isLoading, mutate } = useApi(retentionPeriods());
  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        {T.title}
      </Heading>
      <Text color="fg.muted" maxW="3xl">
        {T.intro}
        {data && ` ${T.groupDefault}: ${data.defaultMonths} bulan.`}
      </Text>
      <CompanySettingsTable
        label={T.title}
        fields={FIELDS}
        rows={data?.companies}
        loading={isLoading}
        failed={Boolean(error)}
        manage
        save={(row, values) => setRetentionPeriod(row.companyId, values.months)}
        reset={(row) => resetRetentionPeriod(row.companyId)}
        onChanged={() => void mutate()}
        maxW="3xl"
      />
    </Stack>
  );
}
