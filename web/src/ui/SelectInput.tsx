import { NativeSelect } from '@chakra-ui/react';

export type SelectOption = { id: number; name: string; group?: string | null };

/**
 * Inside a Field.Root, Chakra takes the select's `disabled` from the field (false unless the field says
 * so) and ignores the root's, so a "disabled" select could still be changed. The <select> itself gets
 * it; the field props type omits it, hence the spread.
 */
const selectDisabled = (disabled: boolean | undefined): object => (disabled ? { disabled: true } : {});

/** A native select over numeric ids; 0 means nothing chosen (the placeholder). */
export function SelectInput(props: {
  value: number;
  options: readonly SelectOption[];
  onChange: (id: number) => void;
  placeholder: string;
  disabled?: boolean;
  name?: string;
  loading?: boolean;
}) {
  const grouped = props.options.some((o) => o.group);
  const groups = new Map<string, SelectOption[]>();
  if (grouped) {
    for (const option of props.options) {
      const key = option.group ?? '';
      groups.set(key, [...(groups.get(key) ?? []), option]);
    }
  }
  return (
    <NativeSelect.Root disabled={props.disabled}>
      <NativeSelect.Field
        {...selectDisabled(props.disabled)}
        name={props.name}
        value={props.value > 0 ? String(props.value) : ''}
        onChange={(e) => props.onChange(Number(e.currentTarget.value) || 0)}
      >
        <option value="">{props.loading ? 'Memuat...' : props.placeholder}</option>
        {grouped
          ? [...groups.entries()].map(([group, options]) =>
              group ? (
                <optgroup key={group} label={group}>
                  {options.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name}
                    </option>
                  ))}
                </optgroup>
              ) : (
                options.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))
              ),
            )
          : props.options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
