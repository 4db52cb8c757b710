/** The clock rules of shared/src/handling-clock.ts: calendar arithmetic, states, events (with generated
 * cases). */

import { isValidIsoDate } from '@wbs/shared/dates';
import {
  addDays,
  addMonths,
  calendarDayIn,
  type HandlingEvent,
  handlingClock,
  handlingFacts,
  normaliseWallTime,
  promisedReplyDate,
  statusChangeEvents,
  wibToday,
  wibWallTime,
} from '@wbs/shared/handling-clock';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lateFiledBefore } from './service.ts';

const deadlines = { ackDays: 7, feedbackMonths: 3 };

/** Real calendar days (YYYY-MM-DD) from `min` to `max`, both ISO days. */
const realDayBetween = (min: string, max: string) =>
  fc
    .date({ min: new Date(`${min}T00:00:00Z`), max: new Date(`${max}T00:00:00Z`), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

describe('calendar arithmetic in WIB', () => {
  it('adds months clamped to the last day of the month, and days across years', () => {
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2027-11-30', 3)).toBe('2028-02-29');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-10-15', 3)).toBe('2027-01-15');
    expect(addDays('2026-12-28', 7)).toBe('2027-01-04');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('reads the day in WIB: 17:00 UTC is already the next day in Jakarta', () => {
    expect(wibToday(Date.parse('2026-11-23T16:59:59Z'))).toBe('2026-11-23');
    expect(wibToday(Date.parse('2026-11-23T17:00:00Z'))).toBe('2026-11-24');
    expect(wibWallTime(Date.parse('2026-11-23T17:00:00Z'))).toBe('2026-11-24T00:00:00');
  });

  it("keeps a zone's day until its next midnight, and reads any other moment afresh", () => {
    const hour = 3_600_000;
    const moment = fc.oneof(
      fc.integer({ min: -2_208_988_800_000, max: 4_102_444_800_000 }),
      // Around a midnight of one zone or another, to the millisecond.
      fc
        .tuple(
          fc.integer({ min: 0, max: 47_000 }),
          fc.integer({ min: -14, max: 14 }),
          fc.integer({ min: -2, max: 2 }),
        )
        .map(([day, zone, ms]) => day * 86_400_000 - zone * hour + ms),
    );
    fc.assert(
      fc.property(fc.integer({ min: -12, max: 14 }), fc.array(moment, { maxLength: 30 }), (zone, moments) => {
        const day = calendarDayIn(zone * hour);
        // One reader asked in any order: each answer is the day that moment has in that zone.
        for (const now of moments) {
          expect(day(now)).toBe(new Date(now + zone * hour).toISOString().slice(0, 10));
        }
      }),
    );
  });

  it('names the last filing day that can be late for each acknowledgement period, asked in any order', () => {
    fc.assert(
      fc.property(
        realDayBetween('2000-01-01', '2099-12-31'),
        fc.array(fc.integer({ min: 1, max: 90 }), { maxLength: 40 }),
        (today, periods) => {
          const cutoff = lateFiledBefore(today);
          for (const ackDays of periods) expect(cutoff(ackDays)).toBe(addDays(today, -ackDays));
        },
      ),
    );
  });

  it('normalises the legacy date forms and refuses unreadable ones', () => {
    expect(normaliseWallTime('2026-05-03T08:15:00')).toBe('2026-05-03T08:15:00');
    expect(normaliseWallTime('2026-05-03 08:15:00.123')).toBe('2026-05-03T08:15:00');
    expect(normaliseWallTime('2026-05-03')).toBe('2026-05-03T00:00:00');
    expect(normaliseWallTime('2026-02-30T08:00:00')).toBeNull();
    expect(normaliseWallTime('kemarin')).toBeNull();
    expect(normaliseWallTime(null)).toBeNull();
  });

  it('never throws on any string and, when it reads one, gives a valid wall time', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const wall = normaliseWallTime(value);
        if (wall !== null) expect(wall).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      }),
    );
  });
});

/**
 * The Date-based calendar helpers the arithmetic ones replaced, kept as the test's oracle:
 * on every real day the answers must stay the same.
 */
const byDate = {
  normaliseWallTime(value: string | null | undefined): string | null {
    const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value?.trim() ?? '');
    if (!match) return null;
    const [, day, hh = '00', mm = '00', ss = '00'] = match;
    const year = Number(day!.slice(0, 4));
    if (year < 1900 || year > 2999 || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
    const date = new Date(`${day}T00:00:00Z`);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) return null;
    return `${day}T${hh}:${mm}:${ss}`;
  },
  addDays(isoDay: string, days: number): string {
    return new Date(Date.parse(`${isoDay}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  },
  addMonths(isoDay: string, months: number): string {
    const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
    const target = new Date(0);
    target.setUTCFullYear(y, m - 1 + months, 1);
    const monthEnd = new Date(0);
    monthEnd.setUTCFullYear(target.getUTCFullYear(), target.getUTCMonth() + 1, 0);
    target.setUTCDate(Math.min(d, monthEnd.getUTCDate()));
    return target.toISOString().slice(0, 10);
  },
};

/** What each helper answers: its value, or the name of the error it throws. */
const outcome = (f: () => string | null) => {
  try {
    return f();
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
};

describe('calendar arithmetic without Date objects', () => {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  // Days 0–32 and months 0–13 on purpose: impossible dates must be refused exactly as before.
  // Century years (leap only every 400) and the edges of the 4-digit form, often.
  const year = fc.oneof(
    fc.integer({ min: 0, max: 9999 }),
    fc.integer({ min: 0, max: 99 }).map((century) => century * 100),
    fc.constantFrom(999, 1000, 1899, 1900, 2999, 3000, 9998, 9999),
  );
  const isoDay = fc
    .tuple(year, fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`);
  const realDay = realDayBetween('0001-01-01', '9999-12-31');

  it('knows the century leap years', () => {
    expect(addMonths('1999-11-30', 3)).toBe('2000-02-29');
    expect(addMonths('2099-11-30', 3)).toBe('2100-02-28');
    expect(normaliseWallTime('2000-02-29 10:00')).toBe('2000-02-29T10:00:00');
    expect(normaliseWallTime('1900-02-29 10:00')).toBeNull();
    expect(addDays('2000-02-28', 1)).toBe('2000-02-29');
    expect(addDays('2100-02-28', 1)).toBe('2100-03-01');
  });

  /**
   * On a real day the answer is Date's, whenever Date's is a day of the years 0000–9999 too; on
   * anything else (an impossible day, a result Date would print as ±YYYYYY) the arithmetic refuses.
   */
  const asDateDid = (day: string, byDateAnswer: () => string, answer: () => string) => {
    const expected = isValidIsoDate(day) ? outcome(byDateAnswer) : null;
    if (expected !== null && /^\d{4}-\d{2}-\d{2}$/.test(expected)) expect(answer()).toBe(expected);
    else expect(answer).toThrow(RangeError);
  };

  it('adds days as Date did, across centuries, leap years and year 9999', () => {
    fc.assert(
      fc.property(fc.oneof(isoDay, realDay), fc.integer({ min: -400_000, max: 400_000 }), (day, days) => {
        asDateDid(
          day,
          () => byDate.addDays(day, days),
          () => addDays(day, days),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('adds months as Date did, clamped to the month end', () => {
    fc.assert(
      fc.property(fc.oneof(isoDay, realDay), fc.integer({ min: -30, max: 30 }), (day, months) => {
        asDateDid(
          day,
          () => byDate.addMonths(day, months),
          () => addMonths(day, months),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what is no calendar day or no whole number', () => {
    for (const bad of ['', 'kemarin', '2026-02-29', '2026-13-01', '2026-1-01', '2026-01-01T00:00:00']) {
      expect(() => addDays(bad, 1)).toThrow(RangeError);
      expect(() => addMonths(bad, 1)).toThrow(RangeError);
    }
    expect(() => addDays('2026-01-01', 1.5)).toThrow(RangeError);
    expect(() => addMonths('2026-01-01', Number.NaN)).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(addDays('0001-01-01', -1)).toBe('0000-12-31');
  });

  it('reads legacy dates as Date did, valid or not', () => {
    const legacy = fc
      .tuple(
        fc.oneof(isoDay, realDay),
        fc.constantFrom('', 'T', ' ', 'x'),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        fc.option(fc.integer({ min: 0, max: 99 })),
        fc.constantFrom('', '.123', 'Z', '+07:00'),
      )
      .map(([day, sep, h, m, s, tail]) =>
        sep === '' ? day : `${day}${sep}${pad(h)}:${pad(m)}${s === null ? '' : `:${pad(s)}`}${tail}`,
      );
    fc.assert(
      fc.property(fc.oneof(legacy, fc.string()), (value) => {
        expect(normaliseWallTime(value)).toBe(byDate.normaliseWallTime(value));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('any readable legacy date', () => {
  it('gives a clock without throwing, whatever the year or the day', () => {
    const legacyDate = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.constantFrom('T', ' '),
        fc.integer({ min: 0, max: 23 }),
      )
      .map(([y, m, d, sep, h]) => {
        const p = (n: number, w = 2) => String(n).padStart(w, '0');
        return `${p(y, 4)}-${p(m)}-${p(d)}${sep}${p(h)}:00:00`;
      });
    fc.assert(
      fc.property(
        legacyDate,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 12 }),
        (raw, ackDays, months) => {
          const filedAt = normaliseWallTime(raw);
          if (filedAt === null) return;
          const clock = handlingClock(
            { filedAt, acknowledgedAt: null, answeredAt: null },
            { ackDays, feedbackMonths: months },
            '2026-11-23',
          );
          expect(clock.acknowledgement.dueDate > filedAt.slice(0, 10)).toBe(true);
          expect(clock.feedback.dueDate > filedAt.slice(0, 10)).toBe(true);
        },
      ),
    );
  });
});

describe('clock states', () => {
  const filed = '2026-11-02T10:00:00';
  const facts = (acknowledgedAt: string | null, answeredAt: string | null = null) => ({
    filedAt: filed,
    acknowledgedAt,
    answeredAt,
  });

  it('runs the acknowledgement clock until its day ends, due soon in the last two days', () => {
    expect(handlingClock(facts(null), deadlines, '2026-11-05').acknowledgement.state).toBe('onTime');
    expect(handlingClock(facts(null), deadlines, '2026-11-07').acknowledgement.state).toBe('dueSoon');
    expect(handlingClock(facts(null), deadlines, '2026-11-09').acknowledgement).toEqual({
      dueDate: '2026-11-09',
      doneAt: null,
      state: 'dueSoon',
    });
    expect(handlingClock(facts(null), deadlines, '2026-11-10').acknowledgement.state).toBe('overdue');
  });

  it('stops a clock as met or late, and moves the stage on', () => {
    const onTime = handlingClock(facts('2026-11-09T23:59:00'), deadlines, '2026-12-01');
    expect(onTime.stage).toBe('feedback');
    expect(onTime.acknowledgement.state).toBe('met');
    const late = handlingClock(facts('2026-11-10T00:01:00'), deadlines, '2026-12-01');
    expect(late.acknowledgement.state).toBe('late');
    const done = handlingClock(facts('2026-11-03T08:00:00', '2027-02-03T08:00:00'), deadlines, '2027-03-01');
    expect(done.stage).toBe('done');
    expect(done.feedback).toEqual({ dueDate: '2027-02-02', doneAt: '2027-02-03T08:00:00', state: 'late' });
    expect(promisedReplyDate(done)).toBeNull();
    expect(promisedReplyDate(onTime)).toBe('2027-02-02');
  });
});

describe('acknowledgement and answer from events', () => {
  const filed = '2026-11-02T10:00:00';

  it('the first event acknowledges, the next answers; a final status does both', () => {
    const message: HandlingEvent = { at: '2026-11-03T09:00:00', kind: 'message' };
    const change: HandlingEvent = { at: '2026-11-04T09:00:00', kind: 'status-change' };
    expect(handlingFacts(filed, [change, message])).toEqual({
      filedAt: filed,
      acknowledgedAt: message.at,
      answeredAt: change.at,
    });
    expect(handlingFacts(filed, [{ at: change.at, kind: 'final-status' }])).toEqual({
      filedAt: filed,
      acknowledgedAt: change.at,
      answeredAt: change.at,
    });
    expect(handlingFacts(filed, [])).toEqual({ filedAt: filed, acknowledgedAt: null, answeredAt: null });
  });

  it('counts a status change only when the status moves (a note in the same status is none)', () => {
    const events = statusChangeEvents(
      [
        { at: '2026-11-05T09:00:00', statusId: 12 },
        { at: '2026-11-03T09:00:00', statusId: 11 },
        { at: '2026-11-04T09:00:00', statusId: 11 },
        { at: null, statusId: 14 },
        { at: '2026-11-06T09:00:00', statusId: 21 },
      ],
      1,
      (id) => id === 21,
    );
    expect(events).toEqual([
      { at: '2026-11-03T09:00:00', kind: 'status-change' },
      { at: '2026-11-05T09:00:00', kind: 'status-change' },
      { at: '2026-11-06T09:00:00', kind: 'final-status' },
    ]);
  });

  it('for any events: acknowledged at the earliest, answered no earlier, and never answered without one', () => {
    const wall = fc
      .integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-12-31T00:00:00Z') })
      .map((ms) => new Date(ms).toISOString().slice(0, 19));
    const event = fc.record({
      at: wall,
      kind: fc.constantFrom<HandlingEvent['kind']>('status-change', 'final-status', 'message'),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 8 }), (events) => {
        const facts = handlingFacts(filed, events);
        if (events.length === 0) {
          expect(facts.acknowledgedAt).toBeNull();
          return;
        }
        const earliest = events.map((e) => e.at).sort()[0];
        expect(facts.acknowledgedAt).toBe(earliest);
        if (facts.answeredAt !== null) expect(facts.answeredAt >= facts.acknowledgedAt!).toBe(true);
        if (events.length >= 2) expect(facts.answeredAt).not.toBeNull();
        const clock = handlingClock(facts, deadlines, '2026-06-01');
        expect(['acknowledgement', 'feedback', 'done']).toContain(clock.stage);
      }),
    );
  });
});

describe('the request date check', () => {
  it('accepts exactly the days Date accepted', () => {
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    const byDate = (iso: string) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return false;
      const date = new Date(`${iso}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso;
    };
    const year = fc.oneof(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 99 }).map((century) => century * 100),
    );
    const day = fc
      .tuple(year, fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([y, m, d]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}`);
    fc.assert(
      fc.property(fc.oneof(day, fc.string()), (iso) => {
        expect(isValidIsoDate(iso)).toBe(byDate(iso));
      }),
      { numRuns: 5000 },
    );
    expect(isValidIsoDate('2000-02-29')).toBe(true);
    expect(isValidIsoDate('1900-02-29')).toBe(false);
  });
});
