import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { needs } from '../../platform/auth/permissions.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, declareWrite, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { updateTransfer } from './metadata.service.ts';
import { reversalOperations } from './reversals.routes.ts';
import type { MoneyDeps } from './shared.ts';
import { simulateExpiry } from './transfers.expiry.ts';
import { postTransfer, voidTransfer } from './transfers.pending.ts';
import {
  Transfer,
  TransferCreateBody,
  TransferIdParams,
  TransferList,
  TransferListQuery,
  TransferPostBody,
  TransferUpdateBody,
} from './transfers.schema.ts';
import { createTransfer, listTransfers, retrieveTransfer } from './transfers.service.ts';

const TAG = 'Fintech transfers';

const NoBody = Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] });

/** Transfers' operations, declared: what the dashboard and the CLI name (`ops.createTransfer`). */
export const transferOps = {
  createTransfer: declareWrite({
    method: 'POST',
    path: '/v1/fintech/transfers',
    permission: needs('transfers', 'write'),
    schema: {
      operationId: 'createTransfer',
      'x-plinth-sdk': { resource: 'transfers', method: 'create' },
      tags: [TAG],
      summary: 'Transfer money between two accounts',
      description:
        'Synchronous: the answer is the `posted` transfer, and both accounts show a transaction; or, with ' +
        '`pending: true`, a `pending` transfer holding the amount on the sender until it is posted, voided or ' +
        'expires. Both accounts ' +
        'must belong to the key, be `active` and hold `currency`. Errors name the side at fault in `param` ' +
        '(`from_account_id` or `to_account_id`). Send an `Idempotency-Key` so that a retry moves money once.',
      'x-problems': [
        'resource_not_found',
        'account_frozen',
        'account_closed',
        'currency_mismatch',
        'insufficient_funds',
      ],
      body: TransferCreateBody,
      response: { 200: Ref<Transfer>('Transfer') },
    },
  }),
  retrieveTransfer: declareRead({
    method: 'GET',
    path: '/v1/fintech/transfers/:id',
    permission: needs('transfers', 'read'),
    schema: {
      operationId: 'retrieveTransfer',
      'x-plinth-sdk': { resource: 'transfers', method: 'retrieve' },
      tags: [TAG],
      summary: 'Retrieve a transfer',
      params: TransferIdParams,
      response: { 200: Ref<Transfer>('Transfer') },
    },
  }),
  listTransfers: declareRead({
    method: 'GET',
    path: '/v1/fintech/transfers',
    permission: needs('transfers', 'read'),
    schema: {
      operationId: 'listTransfers',
      'x-plinth-sdk': { resource: 'transfers', method: 'list' },
      tags: [TAG],
      summary: 'List transfers, newest first',
      description: 'With `account_id`, only the transfers from or to that account.',
      'x-problems': ['resource_not_found'],
      querystring: TransferListQuery,
      response: { 200: Ref<TransferList>('TransferList') },
    },
  }),
  updateTransfer: declareWrite({
    method: 'POST',
    path: '/v1/fintech/transfers/:id',
    permission: needs('transfers', 'write'),
    schema: {
      operationId: 'updateTransfer',
      'x-plinth-sdk': { resource: 'transfers', method: 'update' },
      tags: [TAG],
      summary: "Update a transfer's metadata",
      description:
        'Only `metadata` changes: keys given are set, a key given `""` is removed, `"metadata": ""` clears all. ' +
        'Any status. Emits `fintech.transfer.updated` when something changed.',
      'x-problems': ['resource_not_found'],
      params: TransferIdParams,
      body: TransferUpdateBody,
      response: { 200: Ref<Transfer>('Transfer') },
    },
  }),
  postTransfer: declareWrite({
    method: 'POST',
    path: '/v1/fintech/transfers/:id/post',
    permission: needs('transfers', 'write'),
    schema: {
      operationId: 'postTransfer',
      'x-plinth-sdk': { resource: 'transfers', method: 'post' },
      tags: [TAG],
      summary: 'Post a pending transfer, all or part',
      description:
        'Moves `amount` (default: all it holds) from the sender to the receiver, with a journal and each ' +
        "side's transaction, now; the rest of the hold returns to the sender's available balance. A frozen or " +
        'closed side refuses it (it can be voided). 409 `transfer_expired` past `expires_at`, ' +
        '`transfer_not_pending` once posted or voided.',
      'x-body-optional': true,
      'x-problems': [
        'resource_not_found',
        'transfer_not_pending',
        'transfer_expired',
        'account_frozen',
        'account_closed',
      ],
      params: TransferIdParams,
      body: TransferPostBody,
      response: { 200: Ref<Transfer>('Transfer') },
    },
  }),
  voidTransfer: declareWrite({
    method: 'POST',
    path: '/v1/fintech/transfers/:id/void',
    permission: needs('transfers', 'write'),
    schema: {
      operationId: 'voidTransfer',
      'x-plinth-sdk': { resource: 'transfers', method: 'void' },
      tags: [TAG],
      summary: 'Void a pending transfer',
      description:
        "Releases the hold: the amount returns to the sender's available balance, nothing moves, no ledger " +
        'entry. 409 `transfer_expired` past `expires_at`, `transfer_not_pending` once posted or voided.',
      'x-body-optional': true,
      'x-problems': ['resource_not_found', 'transfer_not_pending', 'transfer_expired'],
      params: TransferIdParams,
      body: NoBody,
      response: { 200: Ref<Transfer>('Transfer') },
    },
  }),
  simulateTransferExpiry: declareWrite({
    method: 'POST',
    path: '/v1/sandbox/fintech/transfers/:id/expire',
    permission: needs('sandbox', 'write'),
    schema: {
      operationId: 'simulateTransferExpiry',
      'x-plinth-sdk': { resource: 'sandbox', method: 'expireTransfer' },
      tags: ['Fintech transactions'],
      summary: 'Sandbox: expire a pending transfer now',
      description:
        'Sandbox keys only (a live key: 403 `permission_denied`). What the expiry does at `expires_at`, now: ' +
        '`expired`, its hold released, `fintech.transfer.expired`; `expires_at` becomes now.',
      'x-body-optional': true,
      'x-problems': ['permission_denied', 'resource_not_found', 'transfer_not_pending', 'transfer_expired'],
      params: TransferIdParams,
      body: NoBody,
      response: { 200: Ref<Transfer>('Transfer') },
    },
  }),
};

export function transfersRoutes(app: FastifyInstance, deps: MoneyDeps & { withIdempotency: WithIdempotency }): void {
  app.addSchema(Transfer);
  app.addSchema(TransferList);
  declareOperations(app, deps, [...transferOperations(deps), ...reversalOperations(app, deps)]);
}

/**
 * Transfers, and pending transfers' posts, voids and sandbox expiry
 * (docs/api.md#holding-money-pending-transfers-and-the-two-balances).
 */
const transferOperations = (deps: MoneyDeps) => [
  implement(transferOps.createTransfer, {
    write: (ctx, input) => createTransfer(deps, ctx, input.body),
  }),

  implement(transferOps.retrieveTransfer, {
    read: (owner, input) => retrieveTransfer(deps, owner, input.params.id),
  }),

  implement(transferOps.listTransfers, {
    read: (owner, input) => listTransfers(deps, owner, input.query),
  }),

  implement(transferOps.updateTransfer, {
    write: (ctx, input) => updateTransfer(deps, ctx, input.params.id, input.body.metadata),
  }),

  implement(transferOps.postTransfer, {
    write: (ctx, input) => postTransfer(deps, ctx, input.params.id, input.body ?? {}),
  }),

  implement(transferOps.voidTransfer, {
    write: (ctx, input) => voidTransfer(deps, ctx, input.params.id),
  }),

  implement(transferOps.simulateTransferExpiry, {
    write: (ctx, input) => simulateExpiry(deps, ctx, input.params.id),
  }),
];
