import { Box, Fieldset, HStack, RadioGroup, Textarea } from '@chakra-ui/react';
import { FIELD_LIMITS } from '@wbs/shared';
import { FormField } from '../../ui/FormField.tsx';
import { PROTECTION_QUESTION, PROTECTION_REASON_LABEL } from '../questions.ts';
import { bindText, type StepProps } from './types.ts';

/** Question 15: does the reporter need protection, and why. */
export function ProtectionQuestion({
  state,
  errors,
  update,
}: Pick<StepProps, 'state' | 'errors' | 'update'>) {
  return (
    <Box as="li">
      <Fieldset.Root>
        <Fieldset.Legend>{`15. ${PROTECTION_QUESTION}`}</Fieldset.Legend>
        <RadioGroup.Root
          mt="2"
          name="needsProtection"
          value={state.needsProtection ? 'ya' : 'tidak'}
          onValueChange={(e) => update({ needsProtection: e.value === 'ya' })}
        >
          <HStack gap="6">
            <RadioGroup.Item value="ya">
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>Ya</RadioGroup.ItemText>
            </RadioGroup.Item>
            <RadioGroup.Item value="tidak">
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>Tidak</RadioGroup.ItemText>
            </RadioGroup.Item>
          </HStack>
        </RadioGroup.Root>
      </Fieldset.Root>
      <Box mt="3">
        <FormField label={PROTECTION_REASON_LABEL} error={errors.protectionReason}>
          <Textarea
            name="protectionReason"
            value={state.protectionReason}
            maxLength={FIELD_LIMITS.longText}
            rows={2}
            autoresize
            onChange={bindText(update, 'protectionReason')}
          />
        </FormField>
      </Box>
    </Box>
  );
}
