import type { FastifyInstance } from 'fastify';
import { needs } from '../../platform/auth/permissions.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, declareWrite, implement } from '../../platform/operations/operation.ts';
import {
  ReversalCreateBody,
  ReversalIdParams,
  ReversalListQuery,
  TransferReversal,
  TransferReversalList,
} from './reversals.schema.ts';
import { createReversal, listReversals, retrieveReversal } from './reversals.service.ts';
import type { MoneyDeps } from './shared.ts';
import { TransferIdParams } from './transfers.schema.ts';

const TAG = 'Fintech transfers';

/** Reversals' operations, declared at module scope: what the dashboard and the CLI name through `ops` (src/ops.ts). */
export const reversalOps = {
  createTransferReversal: declareWrite({
    method: 'POST',
    path: '/v1/fintech/transfers/:id/reversals',
    permission: needs('transfers', 'write'),
    schema: {
      operationId: 'createTransferReversal',
      'x-plinth-sdk': { resource: 'transfers', method: 'reverse' },
      tags: [TAG],
      summary: 'Reverse a posted transfer, all or part',
      description:
        'Moves `amount` (default: all that remains) back from the receiver to the sender, with a journal and each ' +
        "side's transaction (`source.type` `transfer_reversal`), linked to the transfer, whose `amount_reversed` " +
        'grows. Several parts may be reversed, never more than was posted. The receiver must have the amount ' +
        'available. Send an `Idempotency-Key` so that a retry reverses once.',
      'x-body-optional': true,
      'x-problems': [
        'resource_not_found',
        'transfer_not_reversible',
        'insufficient_funds',
        'account_frozen',
        'account_closed',
      ],
      params: TransferIdParams,
      body: ReversalCreateBody,
      response: { 200: Ref<TransferReversal>('TransferReversal') },
    },
  }),
  listTransferReversals: declareRead({
    method: 'GET',
    path: '/v1/fintech/transfers/:id/reversals',
    permission: needs('transfers', 'read'),
    schema: {
      operationId: 'listTransferReversals',
      'x-plinth-sdk': { resource: 'transfers', method: 'listReversals' },
      tags: [TAG],
      summary: "List a transfer's reversals, newest first",
      'x-problems': ['resource_not_found'],
      params: TransferIdParams,
      querystring: ReversalListQuery,
      response: { 200: Ref<TransferReversalList>('TransferReversalList') },
    },
  }),
  retrieveTransferReversal: declareRead({
    method: 'GET',
    path: '/v1/fintech/transfers/:id/reversals/:reversal_id',
    permission: needs('transfers', 'read'),
    schema: {
      operationId: 'retrieveTransferReversal',
      'x-plinth-sdk': { resource: 'transfers', method: 'retrieveReversal' },
      tags: [TAG],
      summary: 'Retrieve a reversal',
      params: ReversalIdParams,
      response: { 200: Ref<TransferReversal>('TransferReversal') },
    },
  }),
};

/** Reversals (docs/api.md#correcting-a-transfer): under their transfer's path, in the transfers' permission group. */
export function reversalOperations(app: FastifyInstance, deps: MoneyDeps) {
  app.addSchema(TransferReversal);
  app.addSchema(TransferReversalList);
  return [
    implement(reversalOps.createTransferReversal, {
      write: (ctx, input) => createReversal(deps, ctx, input.params.id, input.body ?? {}),
    }),
    implement(reversalOps.listTransferReversals, {
      read: (owner, input) => listReversals(deps, owner, input.params.id, input.query),
    }),
    implement(reversalOps.retrieveTransferReversal, {
      read: (owner, input) => retrieveReversal(deps, owner, input.params.id, input.params.reversal_id),
    }),
  ];
}
