import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberCompany, rememberedCompany } from './companyChoice.ts';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('remembered company (per user name)', () => {
  it('keeps one choice per user name', () => {
    rememberCompany('holding', 2);
    rememberCompany('staff.holding', 3);
    expect(rememberedCompany('holding')).toBe(2);
    expect(rememberedCompany('staff.holding')).toBe(3);
    expect(rememberedCompany('someone.else')).toBe(0);
  });

  it('forgets the choice when none is made', () => {
    rememberCompany('holding', 2);
    rememberCompany('holding', 0);
    expect(rememberedCompany('holding')).toBe(0);
  });

  it('reads the key the case list has always written', () => {
    localStorage.setItem('wbs.company.holding', '3');
    expect(rememberedCompany('holding')).toBe(3);
    localStorage.setItem('wbs.company.holding', 'rusak');
    expect(rememberedCompany('holding')).toBe(0);
  });

  it('answers 0 and does not throw when storage is unavailable', () => {
    vi.spyOn(window.localStorage, 'getItem').mockImplementation(() => {
      throw new Error('denied');
    });
    vi.spyOn(window.localStorage, 'setItem').mockImplementation(() => {
      throw new Error('denied');
    });
    expect(() => rememberCompany('holding', 2)).not.toThrow();
    expect(rememberedCompany('holding')).toBe(0);
  });
});
