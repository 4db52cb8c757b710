/**
 * Every instant leaves the gateway as WIB wall time `YYYY-MM-DDTHH:mm:ss` (docs/api-contract.md,
 * "Timestamps"): the store's moments (messages, identity-access history) and the legacy's own dates.
 */
import { describe, expect, it } from 'vitest';
import type { LegacyCaseRow } from '../legacy/case-schemas.ts';
import { presentCaseRow } from './cases.ts';
import { presentIdentityAccess, presentMessage } from './messages.ts';

const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
// 17:30 UTC is half past midnight of the next day in WIB: the day changes too.
const moment = new Date('2026-12-31T17:30:05.123Z');

describe('timestamps in replies', () => {
  it("a message's time and an identity access are WIB wall time, whatever the moment's zone", () => {
    const message = presentMessage(
      { id: 1, from: 'reporter', authorUserType: null, content: { text: 'Halo' }, createdAt: moment },
      'staff',
      { handlerSeenId: 0, reporterSeenId: 0 },
    );
    expect(message.createdAt).toBe('2027-01-01T00:30:05');
    const history = presentIdentityAccess(true, [
      { accessedAt: moment, readerUserType: 4, readerRole: 1, kind: 'case-read' },
    ]);
    expect(history.entries[0]?.accessedAt).toBe('2027-01-01T00:30:05');
  });

  it("the legacy's own dates are written the same way; one it cannot read passes as written", () => {
    const row = (caseCreated: string) =>
      ({ caseId: 1, caseNumber: 'WBS-10000001', caseCreated, caseCompanyId: 1 }) as LegacyCaseRow;
    expect(presentCaseRow(row('2026-05-03 08:15:00.123')).createdAt).toBe('2026-05-03T08:15:00');
    expect(presentCaseRow(row('2026-05-03T08:15:00')).createdAt).toMatch(WALL_TIME);
    expect(presentCaseRow(row('kemarin')).createdAt).toBe('kemarin');
  });
});
