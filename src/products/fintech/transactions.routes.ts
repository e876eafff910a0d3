import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requestOf } from '../../platform/events/emit.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { principalOf } from '../../platform/keys/auth.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { AccountIdParams } from './accounts.schema.ts';
import { simulateDeposit, simulateWithdrawal } from './sandbox.service.ts';
import type { MoneyDeps } from './shared.ts';
import {
  SimulationBody,
  Transaction,
  TransactionIdParams,
  TransactionList,
  TransactionListQuery,
} from './transactions.schema.ts';
import { listAccountTransactions, retrieveTransaction } from './transactions.service.ts';

const TAG = 'Fintech transactions';

/** Transactions (read only: they never change) and the sandbox simulations that create them from outside. */
export function transactionsRoutes(app: FastifyInstance, deps: MoneyDeps & { withIdempotency: WithIdempotency }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(Transaction);
  app.addSchema(TransactionList);
  const one = { 200: Ref<Transaction>('Transaction') };

  r.get(
    '/v1/fintech/transactions/:id',
    {
      schema: {
        operationId: 'retrieveTransaction',
        tags: [TAG],
        summary: 'Retrieve a transaction',
        params: TransactionIdParams,
        response: one,
      },
    },
    (request) => retrieveTransaction(deps, principalOf(request), request.params.id),
  );

  r.get(
    '/v1/fintech/accounts/:id/transactions',
    {
      schema: {
        operationId: 'listAccountTransactions',
        tags: [TAG],
        summary: "List an account's transactions, newest first",
        description: 'In ledger order: each `balance_after` is the previous one plus `amount`.',
        params: AccountIdParams,
        querystring: TransactionListQuery,
        response: { 200: Ref<TransactionList>('TransactionList') },
      },
    },
    (request) => listAccountTransactions(deps, principalOf(request), request.params.id, request.query),
  );

  for (const [kind, operationId, summary, service] of [
    ['deposits', 'simulateDeposit', 'Simulate an incoming deposit (sandbox)', simulateDeposit],
    ['withdrawals', 'simulateWithdrawal', 'Simulate an outgoing withdrawal (sandbox)', simulateWithdrawal],
  ] as const) {
    r.post(
      `/v1/sandbox/fintech/accounts/:id/${kind}`,
      {
        schema: {
          operationId,
          tags: [TAG],
          summary,
          description:
            'Moves money between the account and the sandbox funding account and answers with the account’s ' +
            'transaction. Sandbox keys only: a live key gets 403.',
          'x-problems': [
            'permission_denied',
            'account_frozen',
            'account_closed',
            ...(kind === 'withdrawals' ? (['insufficient_funds'] as const) : []),
          ],
          params: AccountIdParams,
          body: SimulationBody,
          response: one,
        },
      },
      (request, reply) =>
        deps.withIdempotency(request, reply, (trx) =>
          service(deps, trx, principalOf(request), request.params.id, request.body, requestOf(request)),
        ),
    );
  }
}
