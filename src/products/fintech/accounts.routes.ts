import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { principalOf } from '../../platform/auth.ts';
import { Account, AccountCreateBody, AccountIdParams, AccountList, AccountListQuery } from './accounts.schema.ts';
import { createAccount, listAccounts, retrieveAccount, type AccountsDeps } from './accounts.service.ts';

export function accountsRoutes(app: FastifyInstance, deps: AccountsDeps): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/v1/fintech/accounts', {
    schema: { operationId: 'createAccount', tags: ['Fintech accounts'], summary: 'Create an account', body: AccountCreateBody, response: { 200: Account } },
  }, (request) => createAccount(deps, principalOf(request), request.body));

  r.get('/v1/fintech/accounts/:id', {
    schema: { operationId: 'retrieveAccount', tags: ['Fintech accounts'], summary: 'Retrieve an account', params: AccountIdParams, response: { 200: Account } },
  }, (request) => retrieveAccount(deps, principalOf(request), request.params.id));

  r.get('/v1/fintech/accounts', {
    schema: { operationId: 'listAccounts', tags: ['Fintech accounts'], summary: 'List accounts, newest first', querystring: AccountListQuery, response: { 200: AccountList } },
  }, (request) => listAccounts(deps, principalOf(request), request.query));
}
