/**
 * The windows per-user limits are counted in. The operator's time zone is Africa/Monrovia, which
 * is UTC+0 with no daylight saving time, so calendar windows are plain UTC:
 *   hour  from the start of the clock hour        (transaction count per hour)
 *   day   from 00:00                              (daily amount, transaction count per day)
 *   week  from Monday 00:00 (ISO 8601 weeks)      (weekly amount)
 *   month from the 1st at 00:00                   (monthly amount)
 *   year  from 1 January at 00:00                 (yearly amount)
 * Each window starts at its boundary (inclusive) and runs up to the moment of the check, so a
 * transaction exactly at 00:00:00.000 on Monday counts in the new day and the new week.
 */
export interface LimitWindows {
  hourStart: Date;
  dayStart: Date;
  weekStart: Date;
  monthStart: Date;
  yearStart: Date;
  /** The earliest of the starts: a week can begin in the previous year or month. */
  earliestStart: Date;
}

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

export function limitWindowsAt(now: Date): LimitWindows {
  const nowMs = now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError('invalid time');
  const hourStart = new Date(Math.floor(nowMs / hourMs) * hourMs);
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const daysSinceMonday = (now.getUTCDay() + 6) % 7;
  const weekStart = new Date(dayStart.getTime() - daysSinceMonday * dayMs);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const yearStart = new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
  const earliestStart = new Date(Math.min(weekStart.getTime(), yearStart.getTime()));
  return { hourStart, dayStart, weekStart, monthStart, yearStart, earliestStart };
}

/**
 * Whether two moments fall in the same windows. Usage may be read for the windows of the
 * application's clock in the same statement that reads the database's; the database's clock is the
 * one that counts, so the usage is only kept when both give the same windows.
 */
export function sameLimitWindows(first: LimitWindows, second: LimitWindows): boolean {
  return (
    first.hourStart.getTime() === second.hourStart.getTime() &&
    first.dayStart.getTime() === second.dayStart.getTime() &&
    first.weekStart.getTime() === second.weekStart.getTime() &&
    first.monthStart.getTime() === second.monthStart.getTime() &&
    first.yearStart.getTime() === second.yearStart.getTime()
  );
}
