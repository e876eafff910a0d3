import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { needs } from '../../platform/auth/permissions.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { declareRead, declareWrite, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { EXAMPLE_NEW_ACCOUNT } from './accounts.examples.ts';
import {
  Account,
  AccountCreateBody,
  AccountIdParams,
  AccountList,
  AccountListQuery,
  AccountStatusDetails,
  AccountUpdateBody,
} from './accounts.schema.ts';
import { createAccount, listAccounts, retrieveAccount } from './accounts.service.ts';
import { updateAccount } from './metadata.service.ts';
import type { AccountsDeps } from './shared.ts';

const AccountRef = Type.Unsafe<Account>(Type.Ref('Account'));

const AccountListRef = Type.Unsafe<Static<typeof AccountList>>(Type.Ref('AccountList'));

/** Accounts' operations, declared at module scope: what the dashboard and the CLI name through `ops` (src/ops.ts). */
export const accountOps = {
  createAccount: declareWrite({
    method: 'POST',
    path: '/v1/fintech/accounts',
    permission: needs('accounts', 'write'),
    schema: {
      operationId: 'createAccount',
      'x-plinth-sdk': { resource: 'accounts', method: 'create' },
      tags: ['Fintech accounts'],
      summary: 'Create an account',
      description:
        'Creates an `active` account with a zero balance in the currency of its country. ' +
        '`{"type":"business","country":"US"}` alone is a complete request.',
      'x-problems': ['country_unsupported'],
      // The account as created (balance 0), not the component's example of one in use.
      'x-example-200': EXAMPLE_NEW_ACCOUNT,
      body: AccountCreateBody,
      response: { 200: AccountRef },
    },
  }),
  retrieveAccount: declareRead({
    method: 'GET',
    path: '/v1/fintech/accounts/:id',
    permission: needs('accounts', 'read'),
    schema: {
      operationId: 'retrieveAccount',
      'x-plinth-sdk': { resource: 'accounts', method: 'retrieve' },
      tags: ['Fintech accounts'],
      summary: 'Retrieve an account',
      params: AccountIdParams,
      response: { 200: AccountRef },
    },
  }),
  listAccounts: declareRead({
    method: 'GET',
    path: '/v1/fintech/accounts',
    permission: needs('accounts', 'read'),
    schema: {
      operationId: 'listAccounts',
      'x-plinth-sdk': { resource: 'accounts', method: 'list' },
      tags: ['Fintech accounts'],
      summary: 'List accounts, newest first',
      querystring: AccountListQuery,
      response: { 200: AccountListRef },
    },
  }),
  updateAccount: declareWrite({
    method: 'POST',
    path: '/v1/fintech/accounts/:id',
    permission: needs('accounts', 'write'),
    schema: {
      operationId: 'updateAccount',
      'x-plinth-sdk': { resource: 'accounts', method: 'update' },
      tags: ['Fintech accounts'],
      summary: "Update an account's metadata or nickname",
      description:
        '`metadata` and `nickname`, either or both (any other field: 400 `parameter_unknown`). Metadata keys ' +
        'given are set, a key given `""` is removed, `"metadata": ""` clears all; `"nickname": ""` clears the ' +
        'nickname. Allowed on a closed account. Emits `fintech.account.updated` when something changed.',
      params: AccountIdParams,
      body: AccountUpdateBody,
      response: { 200: AccountRef },
    },
  }),
};

export function accountsRoutes(app: FastifyInstance, deps: AccountsDeps & { withIdempotency: WithIdempotency }): void {
  app.addSchema(AccountStatusDetails);
  app.addSchema(Account);
  app.addSchema(AccountList);
  declareOperations(app, deps, [
    implement(accountOps.createAccount, {
      write: (ctx, input) => createAccount(deps, ctx, input.body),
    }),

    implement(accountOps.retrieveAccount, {
      read: (owner, input) => retrieveAccount(deps, owner, input.params.id),
    }),

    implement(accountOps.listAccounts, {
      read: (owner, input) => listAccounts(deps, owner, input.query),
    }),

    implement(accountOps.updateAccount, {
      write: (ctx, input) => updateAccount(deps, ctx, input.params.id, input.body),
    }),
  ]);
}
