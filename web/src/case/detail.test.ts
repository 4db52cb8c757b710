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

  it('formats ISO instants as DD/MM/YYYY HH:mm', () => {
    expect(formatDateTime('2026-05-03T08:15:00')).toBe('03/05/2026 08:15');
    expect(formatDateTime('2026-05-03')).toBe('03/05/2026');
  });
});
