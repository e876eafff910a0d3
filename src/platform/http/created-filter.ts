import type { SelectQueryBuilder } from 'kysely';
import { type Static, Type } from 'typebox';
import { firstIdAt } from '../kit/ids.ts';
import { ApiError } from './errors.ts';

// `YYYY-MM-DDTHH:MMZ` (the API's own form) or RFC 3339 with seconds, optional fraction and an offset. The pattern
// states each field's range and each month's last day, so that a client (or a fuzzer) sees in the document every
// time the API takes; only February 29th of a common year is left to `parse` (which years are leap years, it leaves out).
const DAY =
  '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2\\d))';
const DATE = `\\d{4}-${DAY}`;
const HOUR_MINUTE = '(?:[01]\\d|2[0-3]):[0-5]\\d';
const API_FORM = `${DATE}T${HOUR_MINUTE}Z`;
const RFC_3339 = `${DATE}T${HOUR_MINUTE}:[0-5]\\d(?:\\.\\d{1,9})?(?:Z|[+-]${HOUR_MINUTE})`;
/** A time a client sends: the API's own form (a whole minute) or RFC 3339 with an offset (an instant). */
export const TIME_PATTERN = `^(${API_FORM}|${RFC_3339})$`;

const bound = (description: string) =>
  Type.Optional(Type.String({ pattern: TIME_PATTERN, description, examples: ['2026-11-24T00:00Z'] }));

/**
 * `created[gte]`, `created[gt]`, `created[lte]`, `created[lt]` (docs/api.md#filters), in any combination with cursors
 * and other filters: a timestamp `YYYY-MM-DDTHH:MMZ` (that minute's start) or a full RFC 3339 time with an offset.
 */
export const CreatedFilter = Type.Object(
  {
    gte: bound('Created at or after this time.'),
    gt: bound('Created after this time.'),
    lte: bound('Created at or before this time.'),
    lt: bound('Created before this time.'),
  },
  {
    additionalProperties: false,
    description:
      'Only objects created within these bounds: `created[gte]=2026-11-24T00:00Z&created[lt]=2026-11-25T00:00Z`. ' +
      'Times are `YYYY-MM-DDTHH:MMZ` or RFC 3339 with an offset (`2026-11-24T09:30:00+01:00`).',
  },
);
export type CreatedFilter = Static<typeof CreatedFilter>;

/** Whether the date part names a real day: Date.parse would read 2026-02-29 as March 1st. */
function onCalendar(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCDate() === day;
}

/** The creation-time range a filter allows, in milliseconds: `from` inclusive, `to` exclusive. */
export interface CreatedRange {
  from?: number;
  to?: number;
}

/**
 * A bound as milliseconds and the span it names: a whole minute in the API's own form (the form every `created_at` is
 * shown in, so `created[lte]=<an object's created_at>` includes that object), one millisecond in RFC 3339.
 */
export function parseTime(param: string, value: string): { at: number; span: number } {
  const at = Date.parse(value);
  if (!new RegExp(TIME_PATTERN).test(value) || Number.isNaN(at) || !onCalendar(value))
    throw new ApiError(
      'parameter_invalid',
      `${param} must be a time such as 2026-11-24T09:30Z or 2026-11-24T09:30:00+01:00.`,
      { param },
    );
  return { at, span: new RegExp(`^${API_FORM}$`).test(value) ? 60_000 : 1 };
}

/** A filter as a half-open range of milliseconds (stored times have millisecond precision); see `parse`. */
export function createdRange(filter: CreatedFilter | undefined): CreatedRange {
  if (filter === undefined) return {};
  const range: CreatedRange = {};
  const from = (at: number) => {
    range.from = Math.max(range.from ?? -Infinity, at);
  };
  const to = (at: number) => {
    range.to = Math.min(range.to ?? Infinity, at);
  };
  const bound = (name: keyof CreatedFilter) => parseTime(`created[${name}]`, filter[name]!);
  if (filter.gte !== undefined) from(bound('gte').at);
  if (filter.gt !== undefined) from(bound('gt').at + bound('gt').span);
  if (filter.lte !== undefined) to(bound('lte').at + bound('lte').span);
  if (filter.lt !== undefined) to(bound('lt').at);
  return range;
}

// biome-ignore lint/suspicious/noExplicitAny: a list's query, whatever its table
type AnySelect = SelectQueryBuilder<any, any, any>;

/**
 * Restricts a list of `table` (ids of `prefix`) to a creation-time range. Ids sort by creation time, so the range is
 * also one of the primary key, which an index can walk; `created_at` decides, so an id of an older format (which sorts
 * before every current one) is never taken for older than it is.
 */
export function createdWithin<Q extends AnySelect>(query: Q, table: string, prefix: string, range: CreatedRange): Q {
  let q = query;
  if (range.from !== undefined)
    q = q
      .where(`${table}.id`, '>=', firstIdAt(prefix, range.from))
      .where(`${table}.created_at`, '>=', new Date(range.from).toISOString()) as Q;
  if (range.to !== undefined) q = q.where(`${table}.created_at`, '<', new Date(range.to).toISOString()) as Q;
  return q;
}
