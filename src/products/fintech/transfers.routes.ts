import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requestOf } from '../../platform/events/emit.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { principalOf } from '../../platform/keys/auth.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { updateTransfer } from './metadata.service.ts';
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

export function transfersRoutes(app: FastifyInstance, deps: MoneyDeps & { withIdempotency: WithIdempotency }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(Transfer);
  app.addSchema(TransferList);

  r.post(
    '/v1/fintech/transfers',
    {
      schema: {
        operationId: 'createTransfer',
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
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        createTransfer(deps, trx, principalOf(request), request.body, requestOf(request)),
      ),
  );

  r.get(
    '/v1/fintech/transfers/:id',
    {
      schema: {
        operationId: 'retrieveTransfer',
        tags: [TAG],
        summary: 'Retrieve a transfer',
        params: TransferIdParams,
        response: { 200: Ref<Transfer>('Transfer') },
      },
    },
    (request) => retrieveTransfer(deps, principalOf(request), request.params.id),
  );

  r.get(
    '/v1/fintech/transfers',
    {
      schema: {
        operationId: 'listTransfers',
        tags: [TAG],
        summary: 'List transfers, newest first',
        description: 'With `account_id`, only the transfers from or to that account.',
        'x-problems': ['resource_not_found'],
        querystring: TransferListQuery,
        response: { 200: Ref<TransferList>('TransferList') },
      },
    },
    (request) => listTransfers(deps, principalOf(request), request.query),
  );

  const owner = principalOf;
  r.post(
    '/v1/fintech/transfers/:id',
    {
      schema: {
        operationId: 'updateTransfer',
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
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        updateTransfer(deps, trx, owner(request), request.params.id, request.body.metadata, requestOf(request)),
      ),
  );

  r.post(
    '/v1/fintech/transfers/:id/post',
    {
      schema: {
        operationId: 'postTransfer',
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
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        postTransfer(deps, trx, owner(request), request.params.id, request.body ?? {}, requestOf(request)),
      ),
  );

  r.post(
    '/v1/fintech/transfers/:id/void',
    {
      schema: {
        operationId: 'voidTransfer',
        tags: [TAG],
        summary: 'Void a pending transfer',
        description:
          "Releases the hold: the amount returns to the sender's available balance, nothing moves, no ledger " +
          'entry. 409 `transfer_expired` past `expires_at`, `transfer_not_pending` once posted or voided.',
        'x-body-optional': true,
        'x-problems': ['resource_not_found', 'transfer_not_pending', 'transfer_expired'],
        params: TransferIdParams,
        body: Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] }),
        response: { 200: Ref<Transfer>('Transfer') },
      },
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        voidTransfer(deps, trx, owner(request), request.params.id, requestOf(request)),
      ),
  );

  r.post(
    '/v1/sandbox/fintech/transfers/:id/expire',
    {
      schema: {
        operationId: 'simulateTransferExpiry',
        tags: ['Fintech transactions'],
        summary: 'Sandbox: expire a pending transfer now',
        description:
          'Sandbox keys only (a live key: 403 `permission_denied`). What the expiry does at `expires_at`, now: ' +
          '`expired`, its hold released, `fintech.transfer.expired`; `expires_at` becomes now.',
        'x-body-optional': true,
        'x-problems': ['permission_denied', 'resource_not_found', 'transfer_not_pending', 'transfer_expired'],
        params: TransferIdParams,
        body: Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] }),
        response: { 200: Ref<Transfer>('Transfer') },
      },
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        simulateExpiry(deps, trx, owner(request), request.params.id, requestOf(request)),
      ),
  );
}
