import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { requestOf } from '../../platform/events/emit.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { principalOf } from '../../platform/keys/auth.ts';
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

export function accountsRoutes(app: FastifyInstance, deps: AccountsDeps & { withIdempotency: WithIdempotency }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(AccountStatusDetails);
  app.addSchema(Account);
  app.addSchema(AccountList);
  const AccountRef = Type.Unsafe<Account>(Type.Ref('Account'));
  const AccountListRef = Type.Unsafe<Static<typeof AccountList>>(Type.Ref('AccountList'));

  r.post(
    '/v1/fintech/accounts',
    {
      schema: {
        operationId: 'createAccount',
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
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        createAccount(deps, trx, principalOf(request), request.body, requestOf(request)),
      ),
  );

  r.get(
    '/v1/fintech/accounts/:id',
    {
      schema: {
        operationId: 'retrieveAccount',
        tags: ['Fintech accounts'],
        summary: 'Retrieve an account',
        params: AccountIdParams,
        response: { 200: AccountRef },
      },
    },
    (request) => retrieveAccount(deps, principalOf(request), request.params.id),
  );

  r.get(
    '/v1/fintech/accounts',
    {
      schema: {
        operationId: 'listAccounts',
        tags: ['Fintech accounts'],
        summary: 'List accounts, newest first',
        querystring: AccountListQuery,
        response: { 200: AccountListRef },
      },
    },
    (request) => listAccounts(deps, principalOf(request), request.query),
  );

  r.post(
    '/v1/fintech/accounts/:id',
    {
      schema: {
        operationId: 'updateAccount',
        tags: ['Fintech accounts'],
        summary: "Update an account's metadata",
        description:
          'Only `metadata` changes (any other field: 400 `parameter_unknown`): keys given are set, a key given ' +
          '`""` is removed, `"metadata": ""` clears all. Allowed on a closed account. Emits ' +
          '`fintech.account.updated` when something changed.',
        params: AccountIdParams,
        body: AccountUpdateBody,
        response: { 200: AccountRef },
      },
    },
    (request, reply) =>
      deps.withIdempotency(request, reply, (trx) =>
        updateAccount(deps, trx, principalOf(request), request.params.id, request.body.metadata, requestOf(request)),
      ),
  );
}
