import { describe, expect, it } from 'vitest';
import { formatWib } from './receiptTime.ts';

describe('receipt time in WIB', () => {
  it('prints UTC+7 with its label, across the date line', () => {
    expect(formatWib(new Date('2026-11-23T04:05:00Z'))).toBe('23/11/2026 11:05 WIB');
    expect(formatWib(new Date('2026-12-31T17:30:00Z'))).toBe('01/01/2027 00:30 WIB');
  });

  it('gives the same text whatever zone the instant was written in', () => {
    const instants = ['2026-03-29T01:30:00+01:00', '2026-03-29T00:30:00Z', '2026-03-29T09:30:00+09:00'];
    expect(new Set(instants.map((i) => formatWib(new Date(i)))).size).toBe(1);
  });
});
