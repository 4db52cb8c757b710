import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** Label + control + the validation message under it (Chakra Field links label and control). */
export function FormField(props: {
  label: ReactNode;
  error?: string | undefined;
  helper?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  children: ReactNode;
}) {
  return (
    <Field.Root
      invalid={Boolean(props.error)}
      required={props.required}
      disabled={props.disabled}
      readOnly={props.readOnly}
    >
      {/* The required mark is CSS-generated with empty alt text, so the label text stays exact. */}
      <Field.Label
        _after={
          props.required ? { content: '"*" / ""', color: 'fg.error', marginInlineStart: '0.5' } : undefined
        }
      >
        {props.label}
      </Field.Label>
      {props.children}
      {props.helper && !props.error && <Field.HelperText>{props.helper}</Field.HelperText>}
      {props.error && <Field.ErrorText>{props.error}</Field.ErrorText>}
    </Field.Root>
  );
}
