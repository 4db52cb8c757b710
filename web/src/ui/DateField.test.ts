import { describe, expect, it } from 'vitest';
import { maskDateInput } from './DateField.tsx';

describe('maskDateInput', () => {
  it('writes typed digits as DD/MM/YYYY', () => {
    expect(maskDateInput('0')).toBe('0');
    expect(maskDateInput('010')).toBe('01/0');
    expect(maskDateInput('01052026')).toBe('01/05/2026');
    expect(maskDateInput('01/05/20261')).toBe('01/05/2026');
    expect(maskDateInput('ab01-05')).toBe('01/05');
  });
});
