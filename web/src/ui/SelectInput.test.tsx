/** A disabled SelectInput cannot change, also inside a FormField (Chakra's Field used to override it). */
import { ChakraProvider } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { system } from '../theme.ts';
import { FormField } from './FormField.tsx';
import { SelectInput } from './SelectInput.tsx';

afterEach(cleanup);

const options = [
  { id: 1, name: 'Satu' },
  { id: 2, name: 'Dua' },
];

function renderSelect(props: { disabled?: boolean; fieldDisabled?: boolean }) {
  render(
    <ChakraProvider value={system}>
      <FormField label="Provinsi" disabled={props.fieldDisabled}>
        <SelectInput
          name="provinceId"
          value={1}
          options={options}
          placeholder="Pilih"
          disabled={props.disabled}
          onChange={() => undefined}
        />
      </FormField>
    </ChakraProvider>,
  );
  return screen.getByLabelText('Provinsi') as HTMLSelectElement;
}

describe('SelectInput inside a FormField', () => {
  it('is disabled when the select says so, even though the field does not', () => {
    expect(renderSelect({ disabled: true }).disabled).toBe(true);
  });
  it('is disabled when the field says so', () => {
    expect(renderSelect({ fieldDisabled: true }).disabled).toBe(true);
  });
  it('is enabled otherwise', () => {
    expect(renderSelect({}).disabled).toBe(false);
  });
});
