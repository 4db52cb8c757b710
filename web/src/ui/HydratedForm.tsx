import { chakra } from '@chakra-ui/react';
import type { ComponentProps } from 'react';
import { useHydrated } from './useHydrated.ts';

/**
 * A form whose controls are disabled until the app handles them. A prerendered page (web/vite.config.ts)
 * shows its form before the scripts have run: typed text would not reach the app's state, a button
 * would do nothing, and the browser could submit the form natively (fields into the URL). Inside a
 * disabled fieldset nothing can be typed, pressed or submitted; the first render after hydration
 * enables it. Forms rendered in the browser from the start are enabled from their first render.
 */
export function HydratedForm({ children, ...props }: ComponentProps<'form'>) {
  const hydrated = useHydrated();
  return (
    // No action or method: the app always handles the submit event (and prevents the default).
    <form noValidate {...props}>
      <chakra.fieldset disabled={!hydrated} minW="0" m="0" p="0" border="0">
        {children}
      </chakra.fieldset>
    </form>
  );
}
