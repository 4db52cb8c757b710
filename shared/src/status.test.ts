import { describe, expect, it } from 'vitest';
import {
  caseLineClosed,
  caseLineForLog,
  isFinalStatus,
  nextStatusChoices,
  presetLogStatus,
  requiresCaseLine,
  type StatusLike,
  statusBadgeColour,
} from './status.ts';

/** The legacy's table as legacy-sim seeds it (docs/product/handling.md#case-workflow); `open` from GET /CaseStatus/Open. */
const statuses: StatusLike[] = [
  { id: 1, name: 'Baru', order: 1, open: true },
  { id: 11, name: 'Diterima', order: 2, open: true },
  { id: 12, name: 'Verifikasi', order: 3, open: true },
  { id: 13, name: 'Ditolak', order: 3.2, open: false },
  { id: 14, name: 'Investigasi', order: 4, open: true },
  { id: 15, name: 'Klarifikasi Terlapor', order: 5, open: true },
  { id: 16, name: 'Pengumpulan Bukti', order: 6, open: true },
  { id: 17, name: 'Analisis Hasil Investigasi', order: 7, open: true },
  { id: 18, name: 'Rekomendasi', order: 8, open: true },
  { id: 19, name: 'Tindak Lanjut', order: 9, open: true },
  { id: 20, name: 'Pelaporan Hasil', order: 10, open: true },
  { id: 21, name: 'Ditutup', order: 11, open: false },
];
const ids = (list: StatusLike[]) => list.map((s) => s.id);

describe('status rules', () => {
  it('colours badges by order', () => {
    expect(statusBadgeColour(2)).toBe('green');
    expect(statusBadgeColour(7)).toBe('yellow');
    expect(statusBadgeColour(11)).toBe('red');
    expect(statusBadgeColour(3.2)).toBe('red');
    expect(statusBadgeColour(1)).toBe('blue');
  });

  it('offers the same or the next integer order, never order 1', () => {
    expect(ids(nextStatusChoices(statuses, 12))).toEqual([12, 13, 14]);
    expect(ids(nextStatusChoices(statuses, 11))).toEqual([11, 12, 13]);
    expect(ids(nextStatusChoices(statuses, 14))).toEqual([14, 15]);
    expect(ids(nextStatusChoices(statuses, 20))).toEqual([20, 21]);
  });

  it('treats a new case (id 1) as being routed (id 11)', () => {
    expect(ids(nextStatusChoices(statuses, 1))).toEqual([11, 12, 13]);
    expect(presetLogStatus(1)).toBe(11);
    expect(presetLogStatus(11)).toBe(11);
    expect(presetLogStatus(12)).toBeNull();
    expect(requiresCaseLine(1)).toBe(true);
    expect(requiresCaseLine(11)).toBe(true);
    expect(requiresCaseLine(14)).toBe(false);
  });

  it('keeps a case in a final status where it is: a note, never a change', () => {
    expect(isFinalStatus(statuses[3]!)).toBe(true);
    expect(isFinalStatus(statuses[0]!)).toBe(false);
    expect(ids(nextStatusChoices(statuses, 13))).toEqual([13]);
    expect(ids(nextStatusChoices(statuses, 21))).toEqual([21]);
    // Without the open list every status counts as open (the plain spec rule).
    const plain = statuses.map(({ open: _open, ...s }) => s);
    expect(ids(nextStatusChoices(plain, 13))).toEqual([12, 13, 14]);
  });

  it('answers no choice for a status the table does not hold', () => {
    expect(nextStatusChoices(statuses, 99)).toEqual([]);
    expect(nextStatusChoices([], 1)).toEqual([]);
  });

  it('walks every report forward from Baru to the final status, one order at a time', () => {
    // Baru counts as Diterima (order 2), so its furthest step is order 3; then one order at a time.
    const visited: number[] = [];
    let current = statuses.find((s) => s.id === 1)!;
    while (!isFinalStatus(current) && visited.length < statuses.length) {
      const next = nextStatusChoices(statuses, current.id)
        .filter((s) => Number.isInteger(s.order))
        .at(-1)!;
      visited.push(next.id);
      current = next;
    }
    expect(visited).toEqual([12, 14, 15, 16, 17, 18, 19, 20, 21]);
    expect(current.order).toBe(11);
  });

  it('sends no case line once the case is routed past id 11', () => {
    expect(caseLineClosed(11)).toBe(false);
    expect(caseLineClosed(12)).toBe(true);
    expect(caseLineForLog(12, 3)).toBeNull();
    expect(caseLineForLog(11, 3)).toBe(3);
    expect(caseLineForLog(1, 2)).toBe(2);
  });
});
