import { Fieldset, HStack, RadioGroup } from '@chakra-ui/react';
import { WHISTLEBLOWER_TYPES } from '@wbs/shared';
import type { StepProps } from './types.ts';

/** Identitas Pelapor: Pribadi or Perusahaan. */
export function ReporterTypeField({
  value,
  error,
  update,
}: {
  value: number;
  error: string | undefined;
  update: StepProps['update'];
}) {
  return (
    <Fieldset.Root invalid={Boolean(error)}>
      <Fieldset.Legend>Identitas Pelapor</Fieldset.Legend>
      <RadioGroup.Root
        value={value > 0 ? String(value) : null}
        onValueChange={(e) => update({ reporterType: Number(e.value) || 0 })}
        name="reporterType"
      >
        <HStack gap="6">
          {WHISTLEBLOWER_TYPES.map((t) => (
            <RadioGroup.Item key={t.id} value={String(t.id)}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{t.name}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </HStack>
      </RadioGroup.Root>
      {error && <Fieldset.ErrorText>{error}</Fieldset.ErrorText>}
    </Fieldset.Root>
  );
}
