/**
 * When things happen on the rails in the sandbox (docs/api.md#bank-account-numbers-and-payments), in New York time:
 * ACH is submitted at the next cut-off (16:00 on a business day, Monday to Friday) and settles at 09:00 the next
 * business day; a wire settles at once between 09:00 and 18:00 of a business day, else at 09:00 the next one. Holidays
 * are not modelled. Times are milliseconds since the epoch; New York's offset (EST or EDT) comes from the time-zone
 * data Node carries (Intl), for the day in question.
 */

const ZONE = 'America/New_York';
const HOUR = 3_600_000;

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  weekday: 'short',
});

interface Local {
  year: number;
  month: number;
  day: number;
  /** Milliseconds since local midnight. */
  ms: number;
  weekday: string;
}

function local(at: number): Local {
  const p = Object.fromEntries(parts.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
  const ms = (Number(p.hour) * 3600 + Number(p.minute) * 60 + Number(p.second)) * 1000 + (((at % 1000) + 1000) % 1000);
  return { year: Number(p.year), month: Number(p.month), day: Number(p.day), ms, weekday: p.weekday! };
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

const isBusinessDay = (l: Local) => l.weekday !== 'Sat' && l.weekday !== 'Sun';

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
