/**
 * Tenggat Penanganan: each company's acknowledgement and feedback deadlines. The group
 * administrator (type 1) gives a company its own or returns it to the group default; company admins and
 * partners read theirs. A change applies to reports seen from then on (a promised date never moves).
 */
import { Heading, Stack, Text } from '@chakra-ui/react';
import { can } from '@wbs/shared';
import { ACK_DAYS_RANGE, FEEDBACK_MONTHS_RANGE } from '@wbs/shared/handling-clock';
import { api, read, withId } from '../api/client.ts';
import { subjectOf, type User } from '../api/types.ts';
import { useApi } from '../api/useApi.ts';
import { CompanySettingsTable } from './CompanySettingsTable.tsx';
import { COMPANY_SETTING_TEXTS } from './companySettingTexts.ts';

export const DEADLINE_TEXTS = {
  ...COMPANY_SETTING_TEXTS,
  title: 'Tenggat Penanganan',
  intro:
    'Tenggat tanda terima dihitung dalam hari kalender dan tenggat tanggapan dalam bulan kalender sejak ' +
    'tanggal laporan dibuat (WIB), termasuk akhir pekan dan hari libur. Perubahan berlaku untuk laporan ' +
    'yang tercatat setelahnya; tanggal yang sudah dijanjikan kepada pelapor tidak berubah.',
  ackDays: 'Tanda terima (hari)',
  feedbackMonths: 'Tanggapan (bulan)',
} as const;

const FIELDS = [
  { name: 'ackDays', label: DEADLINE_TEXTS.ackDays, range: ACK_DAYS_RANGE },
  { name: 'feedbackMonths', label: DEADLINE_TEXTS.feedbackMonths, range: FEEDBACK_MONTHS_RANGE },
] as const;

export function HandlingDeadlinesPage({ user }: { user: User }) {
  const { data, error, isLoading, mutate } = useApi(read('/api/v1/handling-deadlines'));
  return (
    <Stack gap="5">
      <Heading as="h1" size="2xl">
        {DEADLINE_TEXTS.title}
      </Heading>
      <Text color="fg.muted" maxW="3xl">
        {DEADLINE_TEXTS.intro}
        {data &&
          ` ${DEADLINE_TEXTS.groupDefault}: ${data.defaults.ackDays} hari / ${data.defaults.feedbackMonths} bulan.`}
      </Text>
      <CompanySettingsTable
        label={DEADLINE_TEXTS.title}
        fields={FIELDS}
        rows={data?.companies}
        loading={isLoading}
        failed={Boolean(error)}
        manage={can(subjectOf(user), 'handling-deadlines:manage')}
        save={(row, body) => api.PUT('/api/v1/handling-deadlines/{id}', { ...withId(row.companyId), body })}
        reset={(row) => api.DELETE('/api/v1/handling-deadlines/{id}', withId(row.companyId))}
        onChanged={() => void mutate()}
        maxW="4xl"
      />
    </Stack>
  );
}
