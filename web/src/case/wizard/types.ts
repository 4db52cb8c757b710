import type { ChangeEvent } from 'react';
import type { ResumableUploads } from '../resumableUploads.ts';
import type { FilerContext, WizardState } from '../wizardModel.ts';

export type StepProps = {
  state: WizardState;
  errors: Record<string, string>;
  /** The server's reasons for refusing a file, by file name (shown next to the file). */
  fileErrors: Record<string, string>;
  update: (patch: Partial<WizardState>) => void;
  ctx: FilerContext;
  /** Files upload as soon as they are chosen (step 3). */
  uploads: ResumableUploads;
};

type TextKey = {
  [K in keyof WizardState]: WizardState[K] extends string ? K : never;
}[keyof WizardState];

/** onChange of a text input bound to one string field of the wizard state. */
export const bindText =
  (update: StepProps['update'], key: TextKey) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    update({ [key]: e.target.value } as Partial<WizardState>);
