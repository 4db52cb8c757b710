import { describe, expect, it } from 'vitest';
import {
  caseLineForLog,
  nextStatusChoices,
  presetLogStatus,
  requiresCaseLine,
  statusBadgeColour,
} from './status.ts';

const statuses = [
  { id: 1, name: 'Baru', order: 1 },
  { id: 2, name: 'Diterima', order: 2 },
  { id: 3, name: 'Verifikasi', order: 3 },
  { id: 12, name: 'Ditolak', order: 3.2 },
  { id: 4, name: 'Investigasi', order: 4 },
  { id: 11, name: 'Dialihkan', order: 11 },
];

describe('status rules', () => {
  it('colours badges by order', () => {
    expect(statusBadgeColour(2)).toBe('green');
    expect(statusBadgeColour(7)).toBe('yellow');
    expect(statusBadgeColour(11)).toBe('red');
    expect(statusBadgeColour(3.2)).toBe('red');
    expect(statusBadgeColour(1)).toBe('blue');
  });

  it('offers the same or the next integer order, never order 1', () => {
    expect(nextStatusChoices(statuses, 3).map((s) => s.id)).toEqual([3, 12, 4]);
    expect(nextStatusChoices(statuses, 2).map((s) => s.id)).toEqual([2, 3, 12]);
  });

  it('treats a new case (id 1) as being routed (id 11)', () => {
    expect(nextStatusChoices(statuses, 1).map((s) => s.id)).toEqual([11]);
    expect(presetLogStatus(1)).toBe(11);
    expect(presetLogStatus(11)).toBe(11);
    expect(presetLogStatus(3)).toBeNull();
    expect(requiresCaseLine(1)).toBe(true);
    expect(requiresCaseLine(4)).toBe(false);
  });

  it('sends no case line when the current status id is above 11', () => {
    expect(caseLineForLog(12, 3)).toBeNull();
    expect(caseLineForLog(11, 3)).toBe(3);
  });
});
