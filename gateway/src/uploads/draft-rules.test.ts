/**
 * A draft's limits as one rule (draft-rules.ts `draftBreach`), the same at creation and at filing:
 * generated drafts of every form, against the limits as the product states them (docs/product/limits.md).
 */
import type { UploadField } from '@wbs/shared/api/uploads';
import { format, PROBLEM_MESSAGES, TEMPLATE_MESSAGES } from '@wbs/shared/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftBreach, draftSubmission } from './draft-rules.ts';
import type { DraftBinding, DraftFile } from './drafts.ts';

const MB = 1024 * 1024;

/** What each form's draft takes, written from the product rules, not read from the code. */
function limitsOf(binding: DraftBinding) {
  if (binding.purpose === 'case') return { total: 5, fields: { evidence: 1, attachments: 5 }, form: 5 };
  if (binding.purpose === 'log') return { total: 1, fields: { attachments: 1 }, form: 1 };
  const room = binding.room ?? 5;
  return { total: room, fields: { attachments: 5 }, form: 5 };
}

/** Whether these files, in this order, keep every limit of the draft. */
function fits(files: readonly { field: UploadField; size: number }[], binding: DraftBinding): boolean {
  const { total, fields } = limitsOf(binding);
  const of = (field: UploadField) => files.filter((f) => f.field === field).length;
  return (
    files.length <= total &&
    files.every((f) => f.field in fields && f.size <= 10 * MB) &&
    Object.entries(fields).every(([field, max]) => of(field as UploadField) <= max) &&
    files.reduce((sum, f) => sum + f.size, 0) <= total * 10 * MB
  );
}

const bindings = fc.oneof(
  fc.constant<DraftBinding>({ purpose: 'case', owner: 'guest', caseRef: null, room: null }),
  fc.constant<DraftBinding>({ purpose: 'log', owner: 'user:7', caseRef: '1:2', room: null }),
  fc
    .integer({ min: 1, max: 5 })
    .map((room): DraftBinding => ({ purpose: 'evidence', owner: 'guest', caseRef: '1:2', room })),
);
const files = fc.array(
  fc.record({
    field: fc.constantFrom<UploadField>('evidence', 'attachments'),
    name: fc.constantFrom('bukti.pdf', 'foto.png'),
    size: fc.oneof(fc.integer({ min: 0, max: 10 * MB }), fc.integer({ min: 10 * MB - 5, max: 10 * MB + 5 })),
  }),
  { maxLength: 9 },
);

describe("a draft's limits", () => {
  it('refuse exactly the drafts past a limit, naming the field of the first file that passed it', () => {
    fc.assert(
      fc.property(bindings, files, (binding, draft) => {
        const breach = draftBreach(draft, binding);
        if (fits(draft, binding)) {
          expect(breach).toBeNull();
          return;
        }
        const first = draft.findIndex((_, i) => !fits(draft.slice(0, i + 1), binding));
        const culprit = draft[first];
        expect(breach?.field).toBe(culprit?.field);
        const { form, fields } = limitsOf(binding);
        expect([
          format(TEMPLATE_MESSAGES.tooManyAttachments, { limit: form }),
          ...Object.values(fields).map((limit) => format(TEMPLATE_MESSAGES.tooManyAttachments, { limit })),
          format(TEMPLATE_MESSAGES.fileTooLarge, { name: culprit?.name ?? '' }),
          format(TEMPLATE_MESSAGES.filesTooLarge, { limit: limitsOf(binding).total * 10 }),
          PROBLEM_MESSAGES.uploadRequestInvalid,
        ]).toContain(breach?.message);
      }),
      { numRuns: 500 },
    );
  });

  it('are counted again when a draft is filed: nothing past them is sent on', () => {
    fc.assert(
      fc.property(bindings, files, (binding, draft) => {
        const records: DraftFile[] = draft.map((f, i) => ({
          ...f,
          id: `f${i}`,
          name: `${i}-${f.name}`,
          state: 'accepted',
          reason: null,
          ext: 'pdf',
          detected: 'pdf',
          sha256: 'ab',
          path: `/tmp/f${i}`,
          forwardedSize: f.size,
        }));
        const { fileErrors } = draftSubmission(records, { binding, required: null });
        expect(Object.keys(fileErrors).length === 0).toBe(fits(draft, binding));
      }),
      { numRuns: 300 },
    );
  });
});
