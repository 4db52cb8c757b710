/**
 * The company choice of Peta Laporan and Statistik, as the dashboard has it: partner users (3, 5) one
 * company of their partner or all of them, the administrator (1) one company or the whole group,
 * company users (2, 4) their own (no choice). A chosen company is remembered like the dashboard's
 * (so the case list a map area opens shows the same company); "all" is this screen's own choice.
 */
import { Box } from '@chakra-ui/react';
import { USER_TYPES } from '@wbs/shared/constants';
import { useCallback, useState } from 'react';
import { read } from '../api/client.ts';
import { isPartnerUser, type User } from '../api/types.ts';
import { useApi } from '../api/useApi.ts';
import { rememberCompany, rememberedCompany } from '../dashboard/companyChoice.ts';
import { FormField } from '../ui/FormField.tsx';
import { SelectInput } from '../ui/SelectInput.tsx';
import { INSIGHT_TEXTS as T } from './texts.ts';

export type InsightScope = {
  /** The user chooses a company (partner users, the administrator). */
  picks: boolean;
  /** The chosen company, 0 for all of the caller's scope (or the own company of a company user). */
  companyId: number;
  choose: (id: number) => void;
  /** The chosen company's name, the "all" wording, or undefined for a company user (the reply has it). */
  name: string | undefined;
  options: { id: number; name: string }[];
  optionsLoading: boolean;
  allText: string;
  /** The choice is known (a company user's at once; a picker's once its companies are loaded). */
  ready: boolean;
};

export function useInsightScope(user: User): InsightScope {
  const picks = isPartnerUser(user) || user.userTypeId === USER_TYPES.ADMINISTRATOR;
  const [wanted, setWanted] = useState(() => (picks ? rememberedCompany(user.username) : 0));
  const options = useApi(picks ? read('/api/v1/companies/options') : null);
  const items = options.data?.items ?? [];
  // A remembered company no longer held is not asked for (404): the screen shows all instead.
  const held = items.find((c) => c.id === wanted);
  const companyId = options.data ? (held?.id ?? 0) : wanted;
  const allText = user.userTypeId === USER_TYPES.ADMINISTRATOR ? T.wholeGroup : T.allOfPartner;
  const choose = useCallback(
    (id: number) => {
      if (id) rememberCompany(user.username, id);
      setWanted(id);
    },
    [user.username],
  );
  return {
    picks,
    companyId: picks ? companyId : 0,
    choose,
    name: picks ? (held?.name ?? allText) : undefined,
    options: items,
    optionsLoading: options.isLoading,
    allText,
    ready: !picks || options.data !== undefined || options.error !== undefined,
  };
}

/** The company select (nothing for a company user). */
export function InsightScopeField({ scope }: { scope: InsightScope }) {
  if (!scope.picks) return null;
  return (
    <Box maxW={{ base: 'full', sm: 'sm' }}>
      <FormField label={T.company}>
        <SelectInput
          name="companyId"
          value={scope.companyId}
          options={scope.options}
          loading={scope.optionsLoading}
          placeholder={scope.allText}
          onChange={scope.choose}
        />
      </FormField>
    </Box>
  );
}
