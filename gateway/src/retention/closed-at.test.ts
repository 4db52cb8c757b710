/**
 * When a case became final, as its activity log tells (scan.ts `closedAtOf`): the move from an open
 * status into a final one starts the period; a later move between final statuses does not restart
 * it; a case opened again and closed later starts from its last closing; the log's order on the
 * wire does not matter. Generated logs check the rule against a plain reading of the same log.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LegacyCase } from '../legacy/case-schemas.ts';
import { closedAtOf } from './scan.ts';

const DITOLAK = 20;
const DITUTUP = 21;
const INVESTIGASI = 14;
const FINALS = new Set([DITOLAK, DITUTUP]);

const caseWith = (logs: { at: string; statusId: number }[]) =>
  ({
    caselogs: logs.map((log, index) => ({
      caseLogId: index + 1,
      caseLogCaseStatusId: log.statusId,
      caseLogCreated: log.at,
    })),
  }) as unknown as LegacyCase;

describe('closedAtOf', () => {
  it('is the time of the entry that closed the case', () => {
    const c = caseWith([
      { at: '2025-01-02T08:00:00', statusId: INVESTIGASI },
      { at: '2025-03-04T09:30:00', statusId: DITUTUP },
    ]);
    expect(closedAtOf(c, FINALS)).toBe('2025-03-04T09:30:00');
  });

  it('is not restarted by a move from one final status to another', () => {
    const c = caseWith([
      { at: '2025-01-02T08:00:00', statusId: DITOLAK },
      { at: '2025-06-01T08:00:00', statusId: DITUTUP },
    ]);
    expect(closedAtOf(c, FINALS)).toBe('2025-01-02T08:00:00');
  });

  it('starts from the last closing of a case opened again', () => {
    const c = caseWith([
      { at: '2025-01-02T08:00:00', statusId: DITUTUP },
      { at: '2025-02-02T08:00:00', statusId: INVESTIGASI },
      { at: '2025-04-05T10:00:00', statusId: DITUTUP },
    ]);
    expect(closedAtOf(c, FINALS)).toBe('2025-04-05T10:00:00');
  });

  it('reads the log in time order whatever order the legacy sent it in', () => {
    const c = caseWith([
      { at: '2025-04-05T10:00:00', statusId: DITUTUP },
      { at: '2025-01-02T08:00:00', statusId: INVESTIGASI },
    ]);
    expect(closedAtOf(c, FINALS)).toBe('2025-04-05T10:00:00');
  });

  it('is null for a case whose log ends open or that has no log', () => {
    expect(closedAtOf(caseWith([]), FINALS)).toBeNull();
    expect(
      closedAtOf(
        caseWith([
          { at: '2025-01-02T08:00:00', statusId: DITUTUP },
          { at: '2025-02-02T08:00:00', statusId: INVESTIGASI },
        ]),
        FINALS,
      ),
    ).toBeNull();
  });

  it('agrees with a plain reading of any generated log', () => {
    const status = fc.constantFrom(INVESTIGASI, 15, DITOLAK, DITUTUP);
    const log = fc.array(
      fc.record({
        day: fc.integer({ min: 1, max: 28 }),
        month: fc.integer({ min: 1, max: 12 }),
        statusId: status,
      }),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(log, (entries) => {
        // Distinct times, so "in time order" has one answer.
        const logs = entries.map((e, index) => ({
          at: `2025-${String(e.month).padStart(2, '0')}-${String(e.day).padStart(2, '0')}T08:${String(index).padStart(2, '0')}:00`,
          statusId: e.statusId,
        }));
        const ordered = [...logs].sort((a, b) => (a.at < b.at ? -1 : 1));
        // Plain reading: walk from Baru (1); remember when an open stretch turned final.
        let current = 1;
        let closedAt: string | null = null;
        for (const entry of ordered) {
          if (entry.statusId === current) continue;
          const wasFinal = FINALS.has(current);
          current = entry.statusId;
          if (FINALS.has(current) && !wasFinal) closedAt = entry.at;
          if (!FINALS.has(current)) closedAt = null;
        }
        expect(closedAtOf(caseWith(logs), FINALS)).toBe(FINALS.has(current) ? closedAt : null);
      }),
      { numRuns: 300 },
    );
  });
});
