import { needs } from '../../platform/auth/permissions.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, declareWrite } from '../../platform/operations/operation.ts';
import {
  type ExternalAccount,
  ExternalAccountCreateBody,
  ExternalAccountIdParams,
  type ExternalAccountList,
  ExternalAccountListQuery,
  ExternalAccountUpdateBody,
} from './external-accounts.schema.ts';

const PAYMENTS = 'Fintech payments';

/** External accounts' operations, declared (payments.routes.ts binds them). */
export const externalAccountOps = {
  createExternalAccount: declareWrite({
    method: 'POST',
    path: '/v1/fintech/external_accounts',
    permission: needs('payments', 'write'),
    schema: {
      operationId: 'createExternalAccount',
      'x-plinth-sdk': { resource: 'externalAccounts', method: 'create' },
      tags: [PAYMENTS],
      summary: 'Create an external account',
      description: 'A bank account outside Plinth to pay. The routing number’s check digit is checked.',
      body: ExternalAccountCreateBody,
      response: { 200: Ref<ExternalAccount>('ExternalAccount') },
    },
  }),
  retrieveExternalAccount: declareRead({
    method: 'GET',
    path: '/v1/fintech/external_accounts/:id',
    permission: needs('payments', 'read'),
    schema: {
      operationId: 'retrieveExternalAccount',
      'x-plinth-sdk': { resource: 'externalAccounts', method: 'retrieve' },
      tags: [PAYMENTS],
      summary: 'Retrieve an external account',
      params: ExternalAccountIdParams,
      response: { 200: Ref<ExternalAccount>('ExternalAccount') },
    },
  }),
  listExternalAccounts: declareRead({
    method: 'GET',
    path: '/v1/fintech/external_accounts',
    permission: needs('payments', 'read'),
    schema: {
      operationId: 'listExternalAccounts',
      'x-plinth-sdk': { resource: 'externalAccounts', method: 'list' },
      tags: [PAYMENTS],
      summary: 'List external accounts, newest first',
      querystring: ExternalAccountListQuery,
      response: { 200: Ref<ExternalAccountList>('ExternalAccountList') },
    },
  }),
  updateExternalAccount: declareWrite({
    method: 'POST',
    path: '/v1/fintech/external_accounts/:id',
    permission: needs('payments', 'write'),
    schema: {
      operationId: 'updateExternalAccount',
      'x-plinth-sdk': { resource: 'externalAccounts', method: 'update' },
      tags: [PAYMENTS],
      summary: 'Update an external account',
      description: 'Its holder’s name and metadata. Emits `fintech.external_account.updated` when something changed.',
      params: ExternalAccountIdParams,
      body: ExternalAccountUpdateBody,
      response: { 200: Ref<ExternalAccount>('ExternalAccount') },
    },
  }),
};
