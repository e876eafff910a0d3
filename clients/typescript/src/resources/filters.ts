/**
 * Metadata and the `created` filter (docs/api.md#metadata-your-own-references), as the layer's methods take them. On
 * the wire a filter is OpenAPI's deepObject, `created[gte]=…` and `metadata[order]=A-1` (the generated query serialiser
 * writes that); here it is a plain object, cleaned of what JavaScript lets slip in (`undefined` would be sent as the
 * text "undefined").
 */

/** Your own key-value pairs on an account, transfer or webhook endpoint: strings only, at most 50 keys. */
export type Metadata = Record<string, string>;

/**
 * A change to metadata (`update`): the keys given are set, a key given `''` is removed, keys not named stay; `''`
 * instead of an object removes every key (as Stripe's `metadata: ''`).
 */
export type MetadataUpdate = Metadata | '';

/**
 * A time the API takes (a `created` bound, a balance's `at`, a statement's period): a string is sent as given
 * (`YYYY-MM-DDTHH:MMZ`, the form every `created_at` has, names that whole minute; RFC 3339 with an offset names an
 * instant); a `Date` is sent as its ISO 8601 UTC instant, to the millisecond.
 */
export type ApiTime = Date | string;

/** A bound of a `created` filter (see ApiTime). */
export type CreatedBound = ApiTime;

/** The time as the query carries it. */
export function timeQuery(at: ApiTime): string {
  return at instanceof Date ? at.toISOString() : at;
}

/** Only objects created within these bounds, any combination: `{ gte: '2026-11-24T00:00Z', lt: new Date() }`. */
export interface CreatedFilter {
  gte?: CreatedBound;
  gt?: CreatedBound;
  lte?: CreatedBound;
  lt?: CreatedBound;
}

/** The filter as the generated request takes it, or `undefined` when no bound is given. */
export function createdQuery(filter: CreatedFilter | undefined): Record<string, string> | undefined {
  if (filter === undefined) return undefined;
  const bounds = Object.entries(filter).filter(([, at]) => at !== undefined && at !== null) as [string, CreatedBound][];
  if (bounds.length === 0) return undefined;
  return Object.fromEntries(bounds.map(([name, at]) => [name, timeQuery(at)]));
}

/** A metadata filter (every pair must hold), or `undefined` when it names no key. */
export function metadataQuery(filter: Metadata | undefined): Metadata | undefined {
  if (filter === undefined) return undefined;
  const pairs = Object.entries(filter).filter(([, value]) => value !== undefined && value !== null);
  return pairs.length === 0 ? undefined : Object.fromEntries(pairs);
}
