import { type Static, Type } from 'typebox';
import { Metadata, MetadataInput } from '../../modules/metadata/index.ts';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { idPattern } from '../../platform/kit/ids.ts';
import { IdOf } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';
import { Amount, Description } from './transfers.schema.ts';

/** The correction of a posted transfer (docs/api.md#correcting-a-transfer). */

const EXAMPLE_REVERSAL = {
  id: 'trr_01M7Z3A8K2XK8P3Q9VJ6T5N0CD',
  object: 'fintech.transfer_reversal',
  transfer_id: 'tr_01M7Z2C4H2XK8P3Q9VJ6T5N0AB',
  amount: 1000,
  currency: 'USD',
  description: 'Refund: order 6735 returned',
  metadata: { order_id: '6735' },
  livemode: false,
  created_at: '2026-11-23T09:40Z',
};

export const ReversalCreateBody = Type.Object(
  {
    amount: Type.Optional({
      ...Amount,
      description:
        'How much to move back, 1 to what remains of the transfer (`posted_amount` − `amount_reversed`); ' +
        'default: all that remains.',
      examples: [1000],
    }),
    description: Type.Optional(Description),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    examples: [{}, { amount: 1000, description: 'Refund: order 6735 returned', metadata: { order_id: '6735' } }],
  },
);
export type ReversalCreateBody = Static<typeof ReversalCreateBody>;

export const TransferReversal = Type.Object(
  {
    id: Type.String({ pattern: idPattern('trr'), description: '`trr_` and an opaque, time-sortable string.' }),
    object: Type.Literal('fintech.transfer_reversal'),
    transfer_id: Type.String({ pattern: idPattern('tr'), description: 'The transfer it corrects.' }),
    amount: Type.Integer({ format: 'int64', description: 'Minor units moved back, from the receiver to the sender.' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: "ISO 4217 code: the transfer's." }),
    description: Type.Union([Type.String(), Type.Null()], { description: 'As given, trimmed; `null` if none.' }),
    metadata: Metadata,
    livemode: Type.Boolean({ description: '`true` for live objects, `false` for sandbox ones.' }),
    created_at: Type.String({ pattern: API_TIME_PATTERN, description: 'Creation time, UTC, `YYYY-MM-DDTHH:MMZ`.' }),
  },
  {
    $id: 'TransferReversal',
    additionalProperties: false,
    description:
      'Money of a posted transfer moved back to its sender, linked to it: a correction, never an edit. A transfer ' +
      'may be reversed in several parts, never beyond what was posted.',
    examples: [EXAMPLE_REVERSAL],
  },
);
export type TransferReversal = Static<typeof TransferReversal>;

export const TransferReversalList = ListPage<TransferReversal>(
  'TransferReversalList',
  'TransferReversal',
  "a transfer's reversals",
  [EXAMPLE_REVERSAL],
  false,
);
export type TransferReversalList = Static<typeof TransferReversalList>;

export const ReversalIdParams = Type.Object(
  {
    id: IdOf('tr', { description: 'A transfer id, `tr_…`.' }),
    reversal_id: IdOf('trr', { description: 'A reversal id, `trr_…`.' }),
  },
  { additionalProperties: false },
);

export const ReversalListQuery = ListQuery('reversal', 'trr');
export type ReversalListQuery = Static<typeof ReversalListQuery>;
