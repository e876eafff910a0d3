import type { FastifyInstance } from 'fastify';
import { needs } from '../../platform/auth/permissions.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, declareWrite, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { AccountIdParams } from './accounts.schema.ts';
import { balanceOperations } from './balances.routes.ts';
import type { BalanceDeps } from './balances.service.ts';
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

const one = { 200: Ref<Transaction>('Transaction') };

/** Transactions' operations, declared at module scope: what the dashboard and the CLI name through `ops` (src/ops.ts). */
export const transactionOps = {
  retrieveTransaction: declareRead({
    method: 'GET',
    path: '/v1/fintech/transactions/:id',
    permission: needs('transactions', 'read'),
    schema: {
      operationId: 'retrieveTransaction',
      'x-plinth-sdk': { resource: 'transactions', method: 'retrieve' },
      tags: [TAG],
      summary: 'Retrieve a transaction',
      params: TransactionIdParams,
      response: one,
    },
  }),
  listAccountTransactions: declareRead({
    method: 'GET',
    path: '/v1/fintech/accounts/:id/transactions',
    permission: needs('transactions', 'read'),
    schema: {
      operationId: 'listAccountTransactions',
      'x-plinth-sdk': { resource: 'transactions', method: 'list' },
      tags: [TAG],
      summary: "List an account's transactions, newest first",
      description: 'In ledger order: each `balance_after` is the previous one plus `amount`.',
      params: AccountIdParams,
      querystring: TransactionListQuery,
      response: { 200: Ref<TransactionList>('TransactionList') },
    },
  }),
};

/** Transactions (read only: they never change) and the sandbox simulations that create them from outside. */
export function transactionsRoutes(
  app: FastifyInstance,
  deps: BalanceDeps & { withIdempotency: WithIdempotency },
): void {
  app.addSchema(Transaction);
  app.addSchema(TransactionList);
  declareOperations(app, deps, [
    implement(transactionOps.retrieveTransaction, {
      read: (owner, input) => retrieveTransaction(deps, owner, input.params.id),
    }),

    implement(transactionOps.listAccountTransactions, {
      read: (owner, input) => listAccountTransactions(deps, owner, input.params.id, input.query),
    }),
    ...balanceOperations(app, deps),
    ...simulations(deps),
  ]);
}

/**
 * A sandbox deposit or withdrawal (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations): the two
 * differ only in their direction, path and names.
 */
function simulation(kind: 'deposits' | 'withdrawals', operationId: string, method: string, summary: string) {
  return declareWrite({
    method: 'POST',
    path: `/v1/sandbox/fintech/accounts/:id/${kind}`,
    permission: needs('sandbox', 'write'),
    schema: {
      operationId,
      'x-plinth-sdk': { resource: 'sandbox', method },
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
  });
}

/** The sandbox's simulations, declared as every other operation is. */
export const simulationOps = {
  simulateDeposit: simulation('deposits', 'simulateDeposit', 'deposit', 'Simulate an incoming deposit (sandbox)'),
  simulateWithdrawal: simulation(
    'withdrawals',
    'simulateWithdrawal',
    'withdraw',
    'Simulate an outgoing withdrawal (sandbox)',
  ),
};

const simulations = (deps: MoneyDeps) => [
  implement(simulationOps.simulateDeposit, {
    write: (ctx, input) => simulateDeposit(deps, ctx, input.params.id, input.body),
  }),
  implement(simulationOps.simulateWithdrawal, {
    write: (ctx, input) => simulateWithdrawal(deps, ctx, input.params.id, input.body),
  }),
];
