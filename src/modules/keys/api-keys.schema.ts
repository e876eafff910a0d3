import { type Static, Type } from 'typebox';
import { LEVELS, PERMISSION_GROUPS } from '../../platform/auth/permissions.ts';
import { ListPage } from '../../platform/http/pagination.ts';
import { type IdKind, idPattern } from '../../platform/kit/ids.ts';
import { FreeText, IdOf, StringEnum } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';

/** The kind of id this resource has: its prefix, and the noun its messages use. */
export const API_KEY: IdKind = { noun: 'API key', prefix: 'key' };

/**
 * The longest key or organisation name, in characters after trimming
 * (docs/api.md#free-text-ids-and-what-the-openapi-document-states).
 */
export const NAME_MAX = 100;

export const Mode = StringEnum(['sandbox', 'live'], {
  description: '`sandbox` keys act on test data, `live` keys on live data.',
});

const GROUPS_DOC =
  '`accounts`, `transfers` (transfers, pending posts and voids, reversals), `transactions` (transactions, ' +
  'balances, statements), `sandbox` (simulations), `events`, `webhook_endpoints` (with deliveries), `api_keys` and ' +
  '`requests`';
const Level = StringEnum(LEVELS, { description: '`none`, `read`, or `write` (which includes read).' });

/** What a restricted key may do, every group listed (docs/api.md#restricted-keys). */
const KeyPermissionsSchema = Type.Object(
  Object.fromEntries(PERMISSION_GROUPS.map((group) => [group, Level])) as Record<
    (typeof PERMISSION_GROUPS)[number],
    typeof Level
  >,
  { additionalProperties: false, description: `Each group's level: ${GROUPS_DOC}.` },
);

/**
 * `permissions` as a key create takes it: any of the groups (a group left out is `none`). Unknown groups pass the
 * schema so that the service names them in a 400 `parameter_invalid`, as the API promises (not `parameter_unknown`).
 */
const PermissionsInput = Type.Object(
  Object.fromEntries(PERMISSION_GROUPS.map((group) => [group, Type.Optional(Level)])) as Record<
    (typeof PERMISSION_GROUPS)[number],
    Type.TOptional<typeof Level>
  >,
  {
    additionalProperties: true,
    description:
      `Makes a restricted key (\`rk_test_…\`, \`rk_live_…\`) that may do only this: for each group, ${GROUPS_DOC}, ` +
      "`none`, `read` or `write`; a group left out is `none`. Within the calling key's own permissions. Without it, " +
      'a full secret key (`sk_…`).',
    examples: [{ accounts: 'read', transactions: 'read' }],
  },
);

const keyProperties = {
  id: Type.String({
    pattern: idPattern('key'),
    description: 'The key id, `key_…`: what you revoke; not a secret.',
  }),
  object: Type.Literal('api_key'),
  mode: Mode,
  hint: Type.String({
    description: 'The mode prefix and the last four characters, to recognise a key: `sk_test_…a1B2`.',
  }),
  name: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    description: 'A label for people, 1–100 characters; `null` when none was given.',
    examples: ['CI deploys'],
  }),
  livemode: Type.Boolean({ description: '`true` for live keys, `false` for sandbox ones.' }),
  created_at: Type.String({ pattern: API_TIME_PATTERN, examples: ['2026-11-21T12:06Z'] }),
  revoked_at: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    pattern: API_TIME_PATTERN,
    description: 'When it was revoked; `null` while it works.',
    examples: [null],
  }),
  last_used_at: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    pattern: API_TIME_PATTERN,
    description: 'When it last authenticated a request; may lag by up to a minute. `null` until first used.',
    examples: ['2026-11-21T12:30Z'],
  }),
  permissions: Type.Union([KeyPermissionsSchema, Type.Null()], {
    description: "A restricted key's permissions, every group listed; `null` for a full key.",
  }),
};

const EXAMPLE_KEY = {
  id: 'key_D20BX2JY00TY1SK00H0Y2JPAH1',
  object: 'api_key',
  mode: 'sandbox',
  hint: 'sk_test_…hXld',
  name: 'CI deploys',
  livemode: false,
  created_at: '2026-11-21T12:06Z',
  revoked_at: null,
  last_used_at: '2026-11-21T12:30Z',
  permissions: null,
};
const EXAMPLE_NEW_KEY = { ...EXAMPLE_KEY, last_used_at: null, key: 'sk_test_4eC39HqLyjWDarjtT1zdp7dcXq3RG8Rx3ZhXld' };

export const ApiKey = Type.Object(keyProperties, {
  $id: 'ApiKey',
  additionalProperties: false,
  description: 'An API key, without its secret.',
  examples: [EXAMPLE_KEY],
});
export type ApiKey = Static<typeof ApiKey>;

export const NewApiKey = Type.Object(
  {
    ...keyProperties,
    key: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      pattern: '^[sr]k_(test|live)_[0-9A-Za-z]{38}$',
      description:
        'The secret key. Shown only here, once: store it now. `null` when this response is the idempotent replay ' +
        'of an earlier one (`Idempotent-Replayed: true`): a secret is never stored, so it cannot be shown twice.',
    }),
  },
  {
    $id: 'NewApiKey',
    additionalProperties: false,
    description: 'A new API key, with its secret, shown this once.',
    examples: [EXAMPLE_NEW_KEY],
  },
);
export type NewApiKey = Static<typeof NewApiKey>;

export const ApiKeyList = ListPage<ApiKey>(
  'ApiKeyList',
  'ApiKey',
  'keys',
  [EXAMPLE_KEY],
  false,
  "One page of the organisation's keys of the caller's mode, newest first, never their secrets.",
);
export type ApiKeyList = Static<typeof ApiKeyList>;

export const ApiKeyCreateBody = Type.Object(
  {
    mode: Type.Optional(Mode),
    name: Type.Optional(
      FreeText(NAME_MAX, {
        description:
          'A label for people: 1–100 characters after trimming, without control, invisible or ' +
          'direction-changing characters (Unicode Cc, Cf, Zl, Zp).',
        examples: ['CI deploys'],
      }),
    ),
    permissions: Type.Optional(PermissionsInput),
  },
  {
    additionalProperties: false,
    examples: [
      {},
      { mode: 'sandbox', name: 'CI deploys' },
      { name: 'Reporting', permissions: { accounts: 'read', transactions: 'read' } },
    ],
    description: 'Optional; `mode` defaults to the calling key’s mode. A sandbox key may not create a live key.',
  },
);
export type ApiKeyCreateBody = Static<typeof ApiKeyCreateBody>;

export const SignupBody = Type.Object(
  {
    name: Type.Optional(
      FreeText(NAME_MAX, {
        description:
          'What to call the organisation: 1–100 characters after trimming, without control, invisible or ' +
          'direction-changing characters (Unicode Cc, Cf, Zl, Zp).',
        examples: ['Acme Labs'],
      }),
    ),
  },
  { additionalProperties: false, examples: [{}, { name: 'Acme Labs' }], description: 'Optional.' },
);
export type SignupBody = Static<typeof SignupBody>;

export const Signup = Type.Object(
  {
    org_id: Type.String({ pattern: idPattern('org') }),
    api_key: Type.Unsafe<NewApiKey>(Type.Ref('NewApiKey')),
  },
  {
    $id: 'SandboxSignup',
    additionalProperties: false,
    examples: [{ org_id: 'org_D20BX2JY00TY1SK00H0Y2JPAH0', api_key: { ...EXAMPLE_NEW_KEY, name: null } }],
    description: 'A new sandbox organisation and its first key, usable at once.',
  },
);

export const KeyIdParams = Type.Object(
  { id: IdOf('key', { description: 'A key id, `key_…`.' }) },
  { additionalProperties: false },
);
