/**
 * When things happen on the rails in the sandbox (docs/api.md#bank-account-numbers-and-payments), in New York time:
 * ACH is submitted at the next cut-off (16:00 on a business day, Monday to Friday) and settles at 09:00 the next
 * business day; a wire settles at once between 09:00 and 18:00 of a business day, else at 09:00 the next one. Holidays
 * are not modelled. Times are milliseconds since the epoch; New York's offset (EST or EDT) comes from the time-zone
 * data Node carries (Intl), for the day in question.
 */

const ZONE = 'America/New_York';
const HOUR = 3_600_000;

const hourOf = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, hourCycle: 'h23', hour: '2-digit' });

interface Local {
  year: number;
  month: number;
  day: number;
  /** Milliseconds since local midnight. */
  ms: number;
  /** 0 (Sunday) to 6 (Saturday). */
  weekday: number;
}

// New York's offset changes only on a whole UTC hour: it is read from the time-zone data once per hour asked about
// (Intl is slow: a payment's create asks for its cut-off), then the wall-clock fields are plain arithmetic.
const offsets = new Map<number, number>();
function offsetHours(at: number): number {
  const hour = Math.floor(at / HOUR);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const local = Number(hourOf.format(new Date(hour * HOUR)));
    offset = (((new Date(hour * HOUR).getUTCHours() - local) % 24) + 24) % 24;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

function local(at: number): Local {
  const wall = new Date(at - offsetHours(at) * HOUR);
  const ms = at - offsetHours(at) * HOUR - Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    ms,
    weekday: wall.getUTCDay(),
  };
}

/** The instant a New York wall-clock time names (the offset of that day, at that hour). */
function instant(year: number, month: number, day: number, hour: number): number {
  const guess = Date.UTC(year, month - 1, day, hour);
  // New York is 4 or 5 hours behind UTC: try both, keep the one that reads back as the wall time asked for.
  for (const offset of [4, 5]) {
    const at = guess + offset * HOUR;
    const back = local(at);
    if (back.day === day && back.ms === hour * HOUR) return at;
  }
  return guess + 5 * HOUR;
}

const isBusinessDay = (l: Local) => l.weekday !== 0 && l.weekday !== 6;

/** The New York date `days` after the one of `l` (by the calendar, not 24-hour steps). */
function dayAfter(l: Local, days: number): { year: number; month: number; day: number } {
  const d = new Date(Date.UTC(l.year, l.month - 1, l.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** `hour` o'clock New York on the first business day on or after `days` days after `at`'s date. */
function atHourOfBusinessDay(at: number, days: number, hour: number): number {
  for (let n = days; ; n++) {
    const date = dayAfter(local(at), n);
    const candidate = instant(date.year, date.month, date.day, hour);
    if (isBusinessDay(local(candidate))) return candidate;
  }
}

/** The next ACH cut-off at or after `at`: 16:00 New York on a business day. */
export function nextAchCutoff(at: number): number {
  const l = local(at);
  if (isBusinessDay(l) && l.ms <= 16 * HOUR) return instant(l.year, l.month, l.day, 16);
  return atHourOfBusinessDay(at, 1, 16);
}

/** When an ACH payment submitted at `at` settles: 09:00 New York the next business day. */
export function achSettlement(at: number): number {
  return atHourOfBusinessDay(at, 1, 9);
}

/** When a wire submitted at `at` settles: at once within 09:00–18:00 New York of a business day, else 09:00 next. */
export function wireSettlement(at: number): number {
  const l = local(at);
  if (isBusinessDay(l) && l.ms >= 9 * HOUR && l.ms < 18 * HOUR) return at;
  if (isBusinessDay(l) && l.ms < 9 * HOUR) return instant(l.year, l.month, l.day, 9);
  return atHourOfBusinessDay(at, 1, 9);
}

/** 09:00 New York on the next business day after `at` (what the dashboard's clock control moves to). */
export function nextBusinessMorning(at: number): number {
  return atHourOfBusinessDay(at, 1, 9);
}
