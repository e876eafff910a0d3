import { needs } from '../../platform/auth/permissions.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, declareWrite } from '../../platform/operations/operation.ts';
import {
  type AccountNumber,
  AccountNumberCreateBody,
  AccountNumberIdParams,
  type AccountNumberList,
  AccountNumberListQuery,
  AccountNumberUpdateBody,
} from './account-numbers.schema.ts';

const NUMBERS = 'Fintech account numbers';

/** Account numbers' operations, declared (payments.routes.ts binds them). */
export const accountNumberOps = {
  createAccountNumber: declareWrite({
    method: 'POST',
    path: '/v1/fintech/account_numbers',
    permission: needs('accounts', 'write'),
    secretFields: ['account_number'],
    schema: {
      operationId: 'createAccountNumber',
      'x-plinth-sdk': { resource: 'accountNumbers', method: 'create' },
      tags: [NUMBERS],
      summary: 'Create an account number',
      description:
        'A new 12-digit bank account number for the account, with its routing number: money sent to it over ACH, ' +
        'wire or RTP reaches the account. `account_number` is in this answer only (kept answers of an ' +
        'Idempotency-Key replay show `null`). Live numbers need the deployment’s routing number (409 ' +
        '`live_rails_not_configured`); a closed account takes none (409 `account_closed`).',
      'x-problems': ['resource_not_found', 'account_closed', 'live_rails_not_configured'],
      body: AccountNumberCreateBody,
      response: { 200: Ref<AccountNumber>('AccountNumber') },
    },
  }),
  retrieveAccountNumber: declareRead({
    method: 'GET',
    path: '/v1/fintech/account_numbers/:id',
    permission: needs('accounts', 'read'),
    schema: {
      operationId: 'retrieveAccountNumber',
      'x-plinth-sdk': { resource: 'accountNumbers', method: 'retrieve' },
      tags: [NUMBERS],
      summary: 'Retrieve an account number',
      description: 'Shows the number as its last four digits (`account_number` is `null`).',
      params: AccountNumberIdParams,
      response: { 200: Ref<AccountNumber>('AccountNumber') },
    },
  }),
  listAccountNumbers: declareRead({
    method: 'GET',
    path: '/v1/fintech/account_numbers',
    permission: needs('accounts', 'read'),
    schema: {
      operationId: 'listAccountNumbers',
      'x-plinth-sdk': { resource: 'accountNumbers', method: 'list' },
      tags: [NUMBERS],
      summary: 'List account numbers, newest first',
      'x-problems': ['resource_not_found'],
      querystring: AccountNumberListQuery,
      response: { 200: Ref<AccountNumberList>('AccountNumberList') },
    },
  }),
  updateAccountNumber: declareWrite({
    method: 'POST',
    path: '/v1/fintech/account_numbers/:id',
    permission: needs('accounts', 'write'),
    schema: {
      operationId: 'updateAccountNumber',
      'x-plinth-sdk': { resource: 'accountNumbers', method: 'update' },
      tags: [NUMBERS],
      summary: 'Update an account number',
      description:
        'Its `name`, its `status` (`disabled`: payments to it are returned R02) or whether it accepts `inbound_debits`. ' +
        'Emits `fintech.account_number.updated` when something changed.',
      'x-problems': ['resource_not_found', 'account_closed'],
      params: AccountNumberIdParams,
      body: AccountNumberUpdateBody,
      response: { 200: Ref<AccountNumber>('AccountNumber') },
    },
  }),
};
