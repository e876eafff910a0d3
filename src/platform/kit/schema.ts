import { type TUnsafe, Type } from 'typebox';
import { idPattern } from './ids.ts';
import { freeTextPattern } from './text.ts';

/** A string enum with its `type` stated, which OpenAPI tools and generated clients want (TypeBox's Enum omits it). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** A reference to a shared schema (registered with app.addSchema), typed as the schema it names. */
export function Ref<T>(id: string): TUnsafe<T> {
  return Type.Unsafe<T>(Type.Ref(id));
}

/**
 * An id a request names (in its path, body or query): its shape is documented, and never refused for it. An id of
 * the wrong shape names nothing, so the answer is the one for an id that does not exist (docs/api.md#the-wire: 404
 * `resource_not_found` for a path id; for a cursor, 400 `parameter_invalid`): the validator leaves id patterns out
 * (see `validatorCompiler`), and the service looks the id up.
 */
export function IdOf(prefix: string, options: Record<string, unknown> = {}) {
  return Type.String({ pattern: idPattern(prefix), ...options });
}

/**
 * Free text for people (a name, a description, a note): 1–`max` characters after trimming, without control,
 * invisible or direction-changing characters: `cleanText`'s rule, which the pattern states exactly.
 */
export function FreeText(max: number, options: Record<string, unknown> = {}) {
  return Type.String({ pattern: freeTextPattern(max), ...options });
}

/** A set of two-character codes as one compact pattern: `^(?:A[DEF]|B[AB])$`. */
export function oneOfPairs(codes: Iterable<string>, separator = ''): string {
  const byFirst = new Map<string, string[]>();
  for (const code of [...codes].sort()) byFirst.set(code[0]!, [...(byFirst.get(code[0]!) ?? []), code[1]!]);
  return `(?:${[...byFirst].map(([first, seconds]) => `${first}${separator}[${seconds.join('')}]`).join('|')})`;
}
