import { describe, expect, it } from 'vitest';
import type { UserTypeId } from './constants.ts';
import { ACTIONS, can, type Subject } from './permissions.ts';

const user = (userTypeId: UserTypeId, role: number | null = 2): Subject => ({ userTypeId, role });

describe('permission matrix', () => {
  it('has a rule for every action', () => {
    for (const action of ACTIONS) expect(typeof can(null, action)).toBe('boolean');
  });

  it('lets only type 1 manage partners and companies', () => {
    for (const type of [2, 3, 4, 5, 6] as const) {
      expect(can(user(type), 'partners:manage')).toBe(false);
      expect(can(user(type), 'companies:manage')).toBe(false);
    }
    expect(can(user(1), 'partners:manage')).toBe(true);
    expect(can(null, 'partners:manage')).toBe(false);
  });

  it('gives case handling to types 2 and 3, and to 4 and 5 only with role 1', () => {
    for (const action of ['case-logs:create', 'cases:export'] as const) {
      expect(can(user(2), action)).toBe(true);
      expect(can(user(3), action)).toBe(true);
      expect(can(user(4, 2), action)).toBe(false);
      expect(can(user(4, 1), action)).toBe(true);
      expect(can(user(5, 2), action)).toBe(false);
      expect(can(user(5, 1), action)).toBe(true);
      expect(can(user(6), action)).toBe(false);
      expect(can(user(1), action)).toBe(false);
      expect(can(null, action)).toBe(false);
    }
  });

  it('lets guests file and track but not list cases', () => {
    expect(can(null, 'cases:create')).toBe(true);
    expect(can(null, 'tracking:use')).toBe(true);
    expect(can(null, 'cases:list')).toBe(false);
    expect(can(user(6), 'cases:create')).toBe(false);
  });

  it('gives type 1 the case list and detail to read, without reporter identity, notes, files or handling', () => {
    expect(can(user(1), 'cases:list')).toBe(true);
    expect(can(user(1), 'cases:read')).toBe(true);
    expect(can(user(1), 'case-reporter:read')).toBe(false);
    expect(can(user(1), 'case-logs:read-full')).toBe(false);
    expect(can(user(1), 'case-attachments:download')).toBe(false);
    for (const type of [2, 3, 4, 5, 6] as const) expect(can(user(type), 'case-reporter:read')).toBe(true);
    expect(can(null, 'case-reporter:read')).toBe(false);
  });

  it('shows full log notes to staff but never to type 6 or guests', () => {
    expect(can(user(6), 'case-logs:read-full')).toBe(false);
    expect(can(null, 'case-logs:read-full')).toBe(false);
    expect(can(user(4), 'case-logs:read-full')).toBe(true);
  });
});
