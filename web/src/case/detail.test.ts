import { describe, expect, it } from 'vitest';
import { sampleDetail as detail } from './detail.fixture.ts';
import { formatDateTime, normaliseCaseDetail } from './detail.ts';

describe('case detail', () => {
  it('reads the contract shape as it is', () => {
    expect(normaliseCaseDetail(structuredClone(detail))).toEqual(detail);
  });

  it('drops fields outside the contract', () => {
    const parsed = normaliseCaseDetail({ ...detail, caseWhistleblowerName: 'Budi', token: 'x' });
    expect(parsed).toEqual(detail);
    expect(parsed).not.toHaveProperty('caseWhistleblowerName');
  });

  it('refuses a reply that is not a case detail (e.g. the old flat spellings)', () => {
    expect(() => normaliseCaseDetail({ caseNumber: 'WBS-1', statusName: 'Baru' })).toThrow();
    expect(() => normaliseCaseDetail({ ...detail, logs: [{ id: 1 }] })).toThrow();
  });

  it('formats WIB wall time as DD/MM/YYYY HH:mm', () => {
    expect(formatDateTime('2026-05-03T08:15:00')).toBe('03/05/2026 08:15');
    expect(formatDateTime('2026-05-03')).toBe('03/05/2026');
  });

  it('brings a time with its own offset to WIB first (the day too), and leaves other text alone', () => {
    expect(formatDateTime('2026-12-31T17:30:00.000Z')).toBe('01/01/2027 00:30');
    expect(formatDateTime('2026-05-03T10:15:00+09:00')).toBe('03/05/2026 08:15');
    expect(formatDateTime('kemarin')).toBe('kemarin');
  });
});
