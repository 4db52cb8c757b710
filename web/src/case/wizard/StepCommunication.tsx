import { Checkbox, Fieldset, Input, Stack } from '@chakra-ui/react';
import { COMMUNICATION_TYPES, FIELD_LIMITS } from '@wbs/shared';
import { FormField } from '../../ui/FormField.tsx';
import { bindText, type StepProps } from './types.ts';

/** Step 2 of 4, Komunikasi: how and when the reporter may be contacted. */
export function StepCommunication({ state, errors, update, ctx }: StepProps) {
  const toggle = (id: number, on: boolean) => {
    const set = new Set(state.communicationTypes);
    if (on) set.add(id);
    else set.delete(id);
    update({ communicationTypes: [...set].sort((a, b) => a - b) });
  };
  return (
    <Stack gap="6">
      <Fieldset.Root invalid={Boolean(errors.communicationTypes)}>
        <Fieldset.Legend>Cara Komunikasi</Fieldset.Legend>
        <Fieldset.HelperText>
          Pilih satu atau lebih cara yang dapat kami gunakan untuk menghubungi Anda.
        </Fieldset.HelperText>
        <Stack gap="3" mt="2">
          {COMMUNICATION_TYPES.map((c) => (
            <Checkbox.Root
              key={c.id}
              checked={state.communicationTypes.includes(c.id)}
              onCheckedChange={(e) => toggle(c.id, e.checked === true)}
            >
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>{c.name}</Checkbox.Label>
            </Checkbox.Root>
          ))}
        </Stack>
        {errors.communicationTypes && <Fieldset.ErrorText>{errors.communicationTypes}</Fieldset.ErrorText>}
      </Fieldset.Root>
      <FormField
        label={ctx.signedIn ? 'Waktu Komunikasi (opsional)' : 'Waktu Komunikasi'}
        error={errors.communicationTime}
        required={!ctx.signedIn}
        helper="Contoh: hari kerja pukul 09.00–17.00"
      >
        <Input
          name="communicationTime"
          value={state.communicationTime}
          maxLength={FIELD_LIMITS.singleLineInput}
          onChange={bindText(update, 'communicationTime')}
        />
      </FormField>
    </Stack>
  );
}
