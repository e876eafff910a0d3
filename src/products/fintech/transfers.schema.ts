import { type Static, Type } from 'typebox';
import { Metadata, MetadataFilter, MetadataInput, MetadataUpdate } from '../../modules/metadata/index.ts';
import { CreatedFilter } from '../../platform/http/created-filter.ts';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { FreeText, IdOf, StringEnum } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';
import { MAX_AMOUNT, type Minor } from './ledger/amount.ts';
import { EXAMPLE_PENDING, EXAMPLE_TRANSFER } from './transfers.examples.ts';

/** Money amounts in requests: integer minor units, 1 to 2^53 − 1. */
export const Amount = Type.Unsafe<Minor>(
  Type.Integer({
    format: 'int64',
    minimum: 1,
    maximum: MAX_AMOUNT,
    description: "A positive integer count of the currency's minor unit (cents for USD), at most 9007199254740991.",
    examples: [2500],
  }),
);

/**
 * A pending transfer's life (docs/api.md#holding-money-pending-transfers-and-the-two-balances): 60 s to 30 days, 7 days
 * unless asked.
 */
export const EXPIRES_MIN = 60;
export const EXPIRES_MAX = 2_592_000;
export const EXPIRES_DEFAULT = 604_800;
export const EXPIRES_ONLY_PENDING =
  'expires_in_seconds is for a pending transfer only: send it with "pending": true, or leave it out.';

/**
 * The longest description of a movement of money, in characters after trimming
 * (docs/api.md#free-text-ids-and-what-the-openapi-document-states).
 */
export const DESCRIPTION_MAX = 200;

export const Description = FreeText(DESCRIPTION_MAX, {
  description:
    'Free text for people: 1–200 characters after trimming, without control, invisible or direction-changing ' +
    'characters (Unicode Cc, Cf, Zl, Zp).',
  examples: ['Invoice 2026-114'],
});

// Each side has an example of its own: examples are combined field by field, and one shared by both would make a
// transfer from an account to itself, which is refused.
const AccountId = (description: string, example: string) => IdOf('acct', { description, examples: [example] });

export const TransferCreateBody = Type.Object(
  {
    from_account_id: AccountId('The account debited.', 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV'),
    to_account_id: AccountId(
      'The account credited. Not the same as `from_account_id` (400 `parameter_invalid`, `param` ' +
        '`to_account_id`): a rule between two fields, which no JSON Schema keyword states.',
      'acct_01M7Z2620T4Y3W5QH0Q8MZB2KD',
    ),
    amount: Amount,
    currency: Type.String({
      pattern: '^[A-Z]{3}$',
      description: 'ISO 4217 code; must be the currency of both accounts.',
      examples: ['USD'],
    }),
    description: Type.Optional(Description),
    pending: Type.Optional(
      Type.Boolean({
        description:
          "Hold the money instead of moving it: the transfer is `pending`, `amount` leaves the sender's " +
          '`available_balance` at once, and moves when it is posted (`/post`), or returns when it is voided (`/void`) ' +
          'or expires. Default `false`: posted at once.',
        examples: [true],
      }),
    ),
    expires_in_seconds: Type.Optional(
      Type.Integer({
        minimum: EXPIRES_MIN,
        maximum: EXPIRES_MAX,
        description:
          `Only with \`pending: true\` (else 400 \`parameter_invalid\`): seconds until the hold expires, ` +
          `${EXPIRES_MIN}–${EXPIRES_MAX}; default ${EXPIRES_DEFAULT} (7 days).`,
        examples: [86400],
      }),
    ),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    // The one rule between two fields that JSON Schema states: whoever sends `expires_in_seconds` sends
    // `"pending": true` with it. Its description is the detail of the 400 that refuses a request breaking it.
    dependentSchemas: {
      expires_in_seconds: {
        required: ['pending'],
        properties: { pending: { const: true, description: EXPIRES_ONLY_PENDING } },
        description: EXPIRES_ONLY_PENDING,
      },
    },
    examples: [
      {
        from_account_id: 'acct_01M7Z25FCR5ZY0JCJ80M91V6XV',
        to_account_id: 'acct_01M7Z2620T4Y3W5QH0Q8MZB2KD',
        amount: 2500,
        currency: 'USD',
        description: 'Invoice 2026-114',
      },
    ],
  },
);
export type TransferCreateBody = Static<typeof TransferCreateBody>;

export const Transfer = Type.Object(
  {
    id: Type.String({ pattern: idPattern('tr'), description: '`tr_` and an opaque, time-sortable string.' }),
    object: Type.Literal('fintech.transfer'),
    from_account_id: Type.String({ description: 'The account debited.' }),
    to_account_id: Type.String({ description: 'The account credited.' }),
    amount: Type.Integer({ format: 'int64', description: 'Minor units moved; positive.' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code.' }),
    description: Type.Union([Type.String(), Type.Null()], { description: 'As given, trimmed; `null` if none.' }),
    status: Type.String({
      description:
        '`posted` (moved), `pending` (held on the sender, waiting to be posted or voided), `voided` (released ' +
        'unmoved) or `expired` (released at `expires_at`). Open enum: clients must accept new values.',
      examples: ['posted'],
    }),
    pending: Type.Boolean({ description: 'Whether it was made with `pending: true`.' }),
    posted_amount: Type.Union([Type.Integer({ format: 'int64' }), Type.Null()], {
      description: 'What moved: `amount`, or for a pending transfer the part posted; `null` until posted.',
    }),
    expires_at: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      pattern: API_TIME_PATTERN,
      description: 'When a pending transfer expires, UTC `YYYY-MM-DDTHH:MMZ`; `null` unless made pending.',
    }),
    resolved_at: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      pattern: API_TIME_PATTERN,
      description:
        'When it left `pending` (posted, voided or expired), UTC; `null` while pending and for a plain transfer.',
    }),
    amount_reversed: Type.Integer({
      format: 'int64',
      description: 'What reversals moved back so far, 0 to `posted_amount` (docs: Correcting a transfer).',
    }),
    reversed: Type.Boolean({ description: 'Whether it is fully reversed: `amount_reversed` = `posted_amount`.' }),
    metadata: Metadata,
    livemode: Type.Boolean({ description: '`true` for live objects, `false` for sandbox ones.' }),
    created_at: Type.String({ pattern: API_TIME_PATTERN, description: 'Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.' }),
  },
  {
    $id: 'Transfer',
    additionalProperties: false,
    description: 'Money moved from one account to another of the same org, mode and currency.',
    examples: [EXAMPLE_TRANSFER, EXAMPLE_PENDING],
  },
);
export type Transfer = Static<typeof Transfer>;

/** `POST /v1/fintech/transfers/{id}/post`: all of the pending amount, or part of it. */
export const TransferPostBody = Type.Object(
  {
    amount: Type.Optional({
      ...Amount,
      description:
        'How much of the pending amount to move, 1 to `amount` (default: all of it); the rest returns to the ' +
        "sender's available balance.",
      examples: [7500],
    }),
  },
  { additionalProperties: false, examples: [{}, { amount: 7500 }] },
);
export type TransferPostBody = Static<typeof TransferPostBody>;

/** `POST /v1/fintech/transfers/{id}`: only the metadata changes (docs/api.md#metadata-your-own-references). */
export const TransferUpdateBody = Type.Object(
  { metadata: MetadataUpdate },
  { additionalProperties: false, examples: [{ metadata: { authorisation: '8842' } }] },
);
export type TransferUpdateBody = Static<typeof TransferUpdateBody>;

export const TransferIdParams = Type.Object(
  { id: IdOf('tr', { description: 'A transfer id, `tr_…`.' }) },
  { additionalProperties: false },
);

export const TransferListQuery = Type.Object(
  {
    account_id: Type.Optional(
      IdOf('acct', { description: 'Only transfers from or to this account (404 `resource_not_found` if none).' }),
    ),
    status: Type.Optional(
      StringEnum(['pending', 'posted', 'voided', 'expired'], { description: 'Only transfers in this status.' }),
    ),
    created: Type.Optional(CreatedFilter),
    metadata: Type.Optional(MetadataFilter),
    ...ListQuery('transfer', 'tr').properties,
  },
  { additionalProperties: false },
);
export type TransferListQuery = Static<typeof TransferListQuery>;

export const TransferList = ListPage<Transfer>(
  'TransferList',
  'Transfer',
  'transfers',
  [EXAMPLE_PENDING, EXAMPLE_TRANSFER],
  false,
);
export type TransferList = Static<typeof TransferList>;
