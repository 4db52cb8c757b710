import { Box, Input, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { FIELD_LIMITS } from '@wbs/shared';
import { read } from '../../api/client.ts';
import { useApi } from '../../api/useApi.ts';
import { FormField } from '../../ui/FormField.tsx';
import { SelectInput } from '../../ui/SelectInput.tsx';
import { QUESTIONS } from '../questions.ts';
import { ProtectionQuestion } from './ProtectionQuestion.tsx';
import { bindText, type StepProps } from './types.ts';

const SINGLE = FIELD_LIMITS.singleLineInput;
const LONG = FIELD_LIMITS.longText;

/** Step 3 of 4, Laporan Dugaan Pelanggaran: company (partner users), category and the questions. */
export function StepReport({ state, errors, update, ctx }: StepProps) {
  const companies = useApi(ctx.partnerUser ? read('/api/v1/companies/options') : null);
  // A partner user's categories are those of the company chosen first.
  const categoryQuery = ctx.partnerUser
    ? state.companyId > 0
      ? read('/api/v1/case-categories', { params: { query: { companyId: String(state.companyId) } } })
      : null
    : read('/api/v1/case-categories');
  const categories = useApi(categoryQuery);
  const categoryOptions = (categories.data?.items ?? []).map((c) => ({
    id: c.id,
    name: c.name,
    group: c.groupName,
  }));
  return (
    <Stack gap="6">
      <SimpleGrid columns={{ base: 1, md: ctx.partnerUser ? 2 : 1 }} gap="5">
        {ctx.partnerUser && (
          <FormField label="Perusahaan" error={errors.companyId} required>
            <SelectInput
              name="companyId"
              value={state.companyId}
              options={companies.data?.items ?? []}
              loading={companies.isLoading}
              placeholder="Pilih Perusahaan"
              onChange={(id) => update({ companyId: id, categoryId: 0 })}
            />
          </FormField>
        )}
        <FormField label="Kategori Pengaduan" error={errors.categoryId} required>
          <SelectInput
            name="categoryId"
            value={state.categoryId}
            options={categoryOptions}
            loading={categories.isLoading}
            disabled={categoryQuery === null}
            placeholder="Pilih Kategori"
            onChange={(id) => update({ categoryId: id })}
          />
        </FormField>
      </SimpleGrid>
      <Stack as="ol" gap="5" listStyleType="none" ps="0">
        {QUESTIONS.map((q, index) => (
          <Box as="li" key={q.field}>
            <FormField label={`${index + 1}. ${q.text}`} error={errors[q.field]} required={q.required}>
              {q.kind === 'long' ? (
                <Textarea
                  name={q.field}
                  value={state[q.field]}
                  maxLength={LONG}
                  rows={3}
                  autoresize
                  onChange={bindText(update, q.field)}
                />
              ) : (
                <Input
                  name={q.field}
                  value={state[q.field]}
                  maxLength={SINGLE}
                  placeholder={q.placeholder}
                  onChange={bindText(update, q.field)}
                />
              )}
            </FormField>
            {q.kind === 'long' && (
              <Text fontSize="xs" color="fg.muted" textAlign="end" mt="1" aria-hidden="true">
                {state[q.field].length}/{LONG}
              </Text>
            )}
          </Box>
        ))}
        <ProtectionQuestion state={state} errors={errors} update={update} />
      </Stack>
    </Stack>
  );
}
