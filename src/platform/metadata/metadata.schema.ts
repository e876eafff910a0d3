import { type Static, Type } from 'typebox';

/**
 * Stripe's rules (docs/api.md#metadata-your-own-references): at most 50 keys, each 1–40 characters without `[` or `]`,
 * values ≤ 500 characters.
 */
export const METADATA_KEYS_MAX = 50;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;
// No NUL in a key or a value: no request body may hold one (body_malformed), so the schema says so too.
const KEY = { minLength: 1, maxLength: METADATA_KEY_MAX, pattern: '^[^\\[\\]\\u0000]*$' };
const VALUE = { type: 'string', maxLength: METADATA_VALUE_MAX, pattern: '^[^\\u0000]*$' } as const;

const RULES =
  `At most ${METADATA_KEYS_MAX} keys, each 1–${METADATA_KEY_MAX} characters without \`[\` or \`]\`; each value a ` +
  `string of at most ${METADATA_VALUE_MAX} characters. For your own references (an order number, a customer id), ` +
  'never for secrets: metadata is returned in every response, event and list that shows the object.';

const object = (value: Record<string, unknown>, description: string, examples: unknown[]) =>
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    propertyNames: KEY,
    additionalProperties: { ...VALUE, ...value },
    maxProperties: METADATA_KEYS_MAX,
    description,
    examples,
  });

/** Metadata as an object shows it: `{}` when none. */
export const Metadata = object({ maxLength: METADATA_VALUE_MAX }, `Your own key-value pairs. ${RULES}`, [
  { order_id: '6735' },
]);
export type Metadata = Static<typeof Metadata>;

/** Metadata given at creation: a key given `""` is not set. */
export const MetadataInput = object(
  { maxLength: METADATA_VALUE_MAX },
  `Your own key-value pairs, \`{}\` when none. ${RULES} A key given \`""\` is not set.`,
  [{ order_id: '6735' }],
);

/** An update: keys given are set, a key given `""` is removed, and `""` for the whole of it clears every key. */
export const MetadataUpdate = Type.Union(
  [
    object(
      { maxLength: METADATA_VALUE_MAX },
      `Keys to set, and keys given \`""\` to remove; keys not named stay as they are. ${RULES}`,
      [{ order_id: '6736', old_reference: '' }],
    ),
    Type.Literal('', { description: '`""` removes every key.' }),
  ],
  { description: 'Changes to the metadata.' },
);
export type MetadataUpdate = Static<typeof MetadataUpdate>;

/**
 * `metadata[<key>]=<value>` in a list's query (parsed into an object by the query parser): every pair must match,
 * exactly. Answered from an index of (owner, kind, key, value).
 */
export const MetadataFilter = Type.Unsafe<Record<string, string>>({
  type: 'object',
  propertyNames: KEY,
  additionalProperties: VALUE,
  maxProperties: METADATA_KEYS_MAX,
  description:
    'Only objects whose metadata has every one of these pairs, exactly: `metadata[order_id]=6735`. Several may be ' +
    'given; all must hold.',
  examples: [{ order_id: '6735' }],
});
