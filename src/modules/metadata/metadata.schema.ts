import { type Static, Type } from 'typebox';

/**
 * Stripe's rules (docs/api.md#metadata-your-own-references): at most 50 keys, each 1–40 characters without `[` or `]`,
 * values ≤ 500 characters.
 */
export const METADATA_KEYS_MAX = 50;
export const METADATA_KEY_MAX = 40;
export const METADATA_VALUE_MAX = 500;
// No NUL in a key or a value: no request body may hold one (body_malformed), so the schema says so too. Given
// metadata holds no key or signing secret, nor the start of one (`x-no-secret`, http/validation.ts): metadata is
// shown in every answer, event and list, and a key pasted over two lines of the dashboard's field would leave its
// second line, most of the key, as a metadata key.
const KEY = { minLength: 1, maxLength: METADATA_KEY_MAX, pattern: '^[^\\[\\]\\u0000]*$' };
const VALUE = { type: 'string', maxLength: METADATA_VALUE_MAX, pattern: '^[^\\u0000]*$' } as const;
const GIVEN_KEY = { ...KEY, 'x-no-secret': true };
const GIVEN = { 'x-no-secret': true };

const RULES =
  `At most ${METADATA_KEYS_MAX} keys, each 1–${METADATA_KEY_MAX} characters without \`[\` or \`]\`; each value a ` +
  `string of at most ${METADATA_VALUE_MAX} characters. For your own references (an order number, a customer id), ` +
  'never for secrets: metadata is returned in every response, event and list that shows the object. A key or ' +
  'value holding what starts a key or a signing secret (`sk_live_`, `sk_test_`, `rk_live_`, `rk_test_`, `whsec_`, ' +
  'in any case) is refused.';

const object = (value: Record<string, unknown>, description: string, examples: unknown[], given = false) =>
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    propertyNames: given ? GIVEN_KEY : KEY,
    additionalProperties: { ...VALUE, ...value, ...(given ? GIVEN : {}) },
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
  true,
);

/** An update: keys given are set, a key given `""` is removed, and `""` for the whole of it clears every key. */
export const MetadataUpdate = Type.Union(
  [
    object(
      { maxLength: METADATA_VALUE_MAX },
      `Keys to set, and keys given \`""\` to remove; keys not named stay as they are. ${RULES}`,
      [{ order_id: '6736', old_reference: '' }],
      true,
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
