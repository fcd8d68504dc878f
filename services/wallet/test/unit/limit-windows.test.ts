import fc from 'fast-check';
import { limitWindowsAt, sameLimitWindows } from '../../src/domain/limit-windows';

const at = (iso: string): Date => new Date(iso);
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

describe('limit windows (Africa/Monrovia = UTC, no DST)', () => {
  it('when it is Wednesday afternoon, then each window starts at its calendar boundary', () => {
    const windows = limitWindowsAt(at('2025-06-18T15:42:07.123Z'));
    expect(windows.hourStart.toISOString()).toBe('2025-06-18T15:00:00.000Z');
    expect(windows.dayStart.toISOString()).toBe('2025-06-18T00:00:00.000Z');
    expect(windows.weekStart.toISOString()).toBe('2025-06-16T00:00:00.000Z');
    expect(windows.monthStart.toISOString()).toBe('2025-06-01T00:00:00.000Z');
    expect(windows.yearStart.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(windows.earliestStart.toISOString()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('when it is exactly Monday 00:00, then a new day and a new ISO week begin at that instant', () => {
    const windows = limitWindowsAt(at('2025-06-16T00:00:00.000Z'));
    expect(windows.dayStart.toISOString()).toBe('2025-06-16T00:00:00.000Z');
    expect(windows.weekStart.toISOString()).toBe('2025-06-16T00:00:00.000Z');
    expect(windows.hourStart.toISOString()).toBe('2025-06-16T00:00:00.000Z');
  });

  it('when it is the last millisecond of Sunday, then the week still started the previous Monday', () => {
    const windows = limitWindowsAt(at('2025-06-15T23:59:59.999Z'));
    expect(windows.weekStart.toISOString()).toBe('2025-06-09T00:00:00.000Z');
    expect(windows.dayStart.toISOString()).toBe('2025-06-15T00:00:00.000Z');
    expect(windows.hourStart.toISOString()).toBe('2025-06-15T23:00:00.000Z');
  });

  it('when the ISO week began in the previous year, then the earliest start is that Monday, not 1 January', () => {
    // 1 January 2026 is a Thursday; its ISO week began on Monday 29 December 2025.
    const windows = limitWindowsAt(at('2026-01-01T08:00:00.000Z'));
    expect(windows.weekStart.toISOString()).toBe('2025-12-29T00:00:00.000Z');
    expect(windows.yearStart.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(windows.monthStart.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(windows.earliestStart.toISOString()).toBe('2025-12-29T00:00:00.000Z');
  });

  it('when it is 29 February of a leap year, then the month started on 1 February', () => {
    const windows = limitWindowsAt(at('2028-02-29T23:30:00.000Z'));
    expect(windows.monthStart.toISOString()).toBe('2028-02-01T00:00:00.000Z');
    expect(windows.dayStart.toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('when the time is invalid, then it is refused', () => {
    expect(() => limitWindowsAt(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('when any instant is taken, then the windows nest, start on their boundaries and contain the instant', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2200-12-31T23:59:59Z'), noInvalidDate: true }), (now) => {
        const w = limitWindowsAt(now);
        const t = now.getTime();
        expect(w.yearStart.getTime()).toBeLessThanOrEqual(w.monthStart.getTime());
        expect(w.monthStart.getTime()).toBeLessThanOrEqual(w.dayStart.getTime());
        expect(w.weekStart.getTime()).toBeLessThanOrEqual(w.dayStart.getTime());
        expect(w.dayStart.getTime()).toBeLessThanOrEqual(w.hourStart.getTime());
        expect(w.hourStart.getTime()).toBeLessThanOrEqual(t);
        expect(t - w.hourStart.getTime()).toBeLessThan(hourMs);
        expect(t - w.dayStart.getTime()).toBeLessThan(dayMs);
        expect(t - w.weekStart.getTime()).toBeLessThan(7 * dayMs);
        expect(w.weekStart.getUTCDay()).toBe(1);
        expect(w.dayStart.getTime() % dayMs).toBe(0);
        expect(w.weekStart.getTime() % dayMs).toBe(0);
        expect(w.monthStart.getUTCDate()).toBe(1);
        expect(w.monthStart.getUTCMonth()).toBe(now.getUTCMonth());
        expect(w.yearStart.getUTCMonth()).toBe(0);
        expect(w.yearStart.getUTCFullYear()).toBe(now.getUTCFullYear());
        expect(w.earliestStart.getTime()).toBe(Math.min(w.weekStart.getTime(), w.yearStart.getTime()));
      }),
    );
  });
});

describe('sameLimitWindows', () => {
  it('when two moments are in the same clock hour, then they share every window', () => {
    expect(sameLimitWindows(limitWindowsAt(new Date('2026-11-22T10:00:00.000Z')), limitWindowsAt(new Date('2026-11-22T10:59:59.999Z')))).toBe(true);
  });

  it('when a boundary lies between two moments, then their windows differ (hour, day, week, month, year)', () => {
    const at = (iso: string) => limitWindowsAt(new Date(iso));
    expect(sameLimitWindows(at('2026-11-22T10:59:59.999Z'), at('2026-11-22T11:00:00.000Z'))).toBe(false);
    expect(sameLimitWindows(at('2026-11-22T23:59:59.999Z'), at('2026-11-23T00:00:00.000Z'))).toBe(false);
    expect(sameLimitWindows(at('2026-12-31T23:59:59.999Z'), at('2027-01-01T00:00:00.000Z'))).toBe(false);
  });
});
