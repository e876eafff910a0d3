import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requestOf } from '../../platform/events/emit.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { principalOf } from '../../platform/keys/auth.ts';
import { Ref } from '../../platform/kit/schema.ts';
import type { MoneyDeps } from './shared.ts';
import { Transfer, TransferCreateBody, TransferIdParams, TransferList, TransferListQuery } from './transfers.schema.ts';
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
          'Synchronous: the answer is the `posted` transfer, and both accounts show a transaction. Both accounts ' +
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
}
