import type { FastifyInstance } from 'fastify';
import { needs } from '../../platform/auth/permissions.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, implement } from '../../platform/operations/operation.ts';
import { AccountIdParams } from './accounts.schema.ts';
import { AccountBalances, AccountStatement, BalancesQuery, StatementQuery } from './balances.schema.ts';
import { type BalanceDeps, balancesAt, statementOf } from './balances.service.ts';

const TAG = 'Fintech transactions';

/** Balances' operations, declared at module scope: what the dashboard and the CLI name through `ops` (src/ops.ts). */
export const balanceOps = {
  retrieveAccountBalances: declareRead({
    method: 'GET',
    path: '/v1/fintech/accounts/:id/balances',
    permission: needs('transactions', 'read'),
    schema: {
      operationId: 'retrieveAccountBalances',
      'x-plinth-sdk': { resource: 'accounts', method: 'balances' },
      tags: [TAG],
      summary: "An account's balances at a moment, now or past",
      description:
        'The current balance after the last transaction at or before `at`, and the available balance: that less ' +
        'what pending transfers held at that instant. Read from an index: the cost does not grow with the ' +
        "account's history. An `at` after now is read as now; the answer echoes the moment used, to the " +
        'millisecond, and is the same whenever it is asked again.',
      'x-problems': ['resource_not_found'],
      params: AccountIdParams,
      querystring: BalancesQuery,
      response: { 200: Ref<AccountBalances>('AccountBalances') },
    },
  }),
  retrieveAccountStatement: declareRead({
    method: 'GET',
    path: '/v1/fintech/accounts/:id/statement',
    permission: needs('transactions', 'read'),
    schema: {
      operationId: 'retrieveAccountStatement',
      'x-plinth-sdk': { resource: 'accounts', method: 'statement' },
      tags: [TAG],
      summary: "An account's statement for a period",
      description:
        'For [`from`, `to`): the opening and closing balances, and the credits and debits counted and summed; ' +
        '`closing_balance` = `opening_balance` + credits − debits, always. The transactions are the list with ' +
        '`created[gte]=from&created[lt]=to`. At most 366 days; a `to` after now is read as now. The answer ' +
        'echoes the moments used, to the millisecond, and is the same whenever it is asked again.',
      'x-problems': ['resource_not_found'],
      params: AccountIdParams,
      querystring: StatementQuery,
      response: { 200: Ref<AccountStatement>('AccountStatement') },
    },
  }),
};

/** Balances at a past moment and statements (docs/api.md#balances-over-time-and-statements): the transactions group. */
export function balanceOperations(app: FastifyInstance, deps: BalanceDeps) {
  app.addSchema(AccountBalances);
  app.addSchema(AccountStatement);
  return [
    implement(balanceOps.retrieveAccountBalances, {
      read: (owner, input) => balancesAt(deps, owner, input.params.id, input.query),
    }),
    implement(balanceOps.retrieveAccountStatement, {
      read: (owner, input) => statementOf(deps, owner, input.params.id, input.query),
    }),
  ];
}
