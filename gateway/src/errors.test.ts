/** A problem's `detail` names the reason (errors.ts `detailOf`), whatever layer threw it. */
import { FIELD_MESSAGES, PROBLEM_MESSAGES } from '@wbs/shared/messages';
import { describe, expect, it } from 'vitest';
import { ApiProblem, FieldErrors, toProblem } from './errors.ts';

const detailOf = (problem: ApiProblem) => problem.toJSON().detail;

describe('problem detail', () => {
  it('a validation refusal from the schemas names its one field error', () => {
    const problem = toProblem(new FieldErrors({ username: FIELD_MESSAGES.usernameRequired }));
    expect(problem.toJSON()).toMatchObject({
      title: PROBLEM_MESSAGES.validation,
      detail: 'Username wajib diisi',
      errors: { username: 'Username wajib diisi' },
    });
  });

  it('a refusal thrown by a handler names its fields the same way', () => {
    const problem = new ApiProblem('validation', {
      errors: { statusId: FIELD_MESSAGES.statusInvalid, caseLineId: FIELD_MESSAGES.logLineInvalid },
    });
    expect(detailOf(problem)).toBe('Terdapat 2 isian yang tidak valid: statusId, caseLineId');
  });

  it('a field whose message is only "invalid" is named', () => {
    const problem = new ApiProblem('validation', {
      errors: { 'Idempotency-Key': PROBLEM_MESSAGES.validation },
    });
    expect(detailOf(problem)).toBe('Isian Idempotency-Key tidak valid');
  });

  it("the legacy's own messages are the reason of a legacy refusal, one per line", () => {
    const problem = new ApiProblem('legacy-error', {
      severity: 'error',
      messages: ['Username sudah digunakan', 'Email sudah digunakan'],
    });
    expect(detailOf(problem)).toBe('Username sudah digunakan\nEmail sudah digunakan');
  });

  it("the thrower's own detail wins; without any reason the title is all there is", () => {
    const own = new ApiProblem('validation', {
      detail: PROBLEM_MESSAGES.dateOutOfRange,
      errors: { from: FIELD_MESSAGES.dateOutOfRange },
    });
    expect(detailOf(own)).toBe(PROBLEM_MESSAGES.dateOutOfRange);
    expect(detailOf(new ApiProblem('validation', { errors: {} }))).toBe(PROBLEM_MESSAGES.validation);
    expect(detailOf(new ApiProblem('not-found'))).toBe(PROBLEM_MESSAGES.notFound);
  });
});
