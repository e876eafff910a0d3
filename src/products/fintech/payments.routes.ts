import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { needs } from '../../platform/auth/permissions.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, declareWrite, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import {
  createAccountNumber,
  listAccountNumbers,
  retrieveAccountNumber,
  updateAccountNumber,
} from './account-numbers.service.ts';
import {
  createExternalAccount,
  listExternalAccounts,
  retrieveExternalAccount,
  updateExternalAccount,
} from './external-accounts.service.ts';
import {
  createPaymentRule,
  deletePaymentRule,
  listPaymentRules,
  ruleBook,
  simulateInboundPayment,
  simulateNotificationOfChange,
  simulateRejection,
  simulateReturn,
  simulateSettlement,
} from './payments.sandbox.ts';
import {
  AccountNumber,
  AccountNumberCreateBody,
  AccountNumberIdParams,
  AccountNumberList,
  AccountNumberListQuery,
  AccountNumberUpdateBody,
  ExternalAccount,
  ExternalAccountCreateBody,
  ExternalAccountIdParams,
  ExternalAccountList,
  ExternalAccountListQuery,
  ExternalAccountUpdateBody,
  InboundPaymentBody,
  NotificationOfChangeBody,
  Payment,
  PaymentCreateBody,
  PaymentIdParams,
  PaymentList,
  PaymentListQuery,
  PaymentReturnBody,
  PaymentRule,
  PaymentRuleCreateBody,
  PaymentRuleDeleted,
  PaymentRuleIdParams,
  PaymentRuleList,
  PaymentRuleListQuery,
} from './payments.schema.ts';
import {
  createPayment,
  listPayments,
  lockPayment,
  outcomes,
  type PaymentDeps,
  retrievePayment,
} from './payments.service.ts';
import { paymentFromRow } from './payments.view.ts';

const NUMBERS = 'Fintech account numbers';
const PAYMENTS = 'Fintech payments';
const SANDBOX = 'Fintech payment simulations';

const NoBody = Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] });
const PaymentRef = Ref<Payment>('Payment');
const SANDBOX_ONLY = 'Sandbox keys only (a live key: 403 `permission_denied`).';

/** Account numbers', external accounts' and payments' operations, and the sandbox's simulations and rules. */
export const paymentOps = {
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
  createPayment: declareWrite({
    method: 'POST',
    path: '/v1/fintech/payments',
    permission: needs('payments', 'write'),
    schema: {
      operationId: 'createPayment',
      'x-plinth-sdk': { resource: 'payments', method: 'create' },
      tags: [PAYMENTS],
      summary: 'Send a payment',
      description:
        'Pays an external account over ACH, wire or RTP. The amount leaves the account’s available balance at once ' +
        '(a pending transfer to the rail’s clearing account, `transfer_id`) and its current balance at settlement. ' +
        'In the sandbox, ACH is submitted at the next cut-off (16:00 New York, Monday to Friday) and settles at 09:00 ' +
        'the next business day; a wire settles at once in banking hours (09:00–18:00 New York), else at 09:00 the ' +
        'next business day; RTP settles at once. Live ACH waits for the bank file; live wire and RTP: 409 ' +
        '`rail_unavailable`. Refused as a transfer would be when the account is short, frozen or closed.',
      'x-problems': [
        'resource_not_found',
        'account_frozen',
        'account_closed',
        'currency_mismatch',
        'insufficient_funds',
        'rail_unavailable',
      ],
      body: PaymentCreateBody,
      response: { 200: PaymentRef },
    },
  }),
  retrievePayment: declareRead({
    method: 'GET',
    path: '/v1/fintech/payments/:id',
    permission: needs('payments', 'read'),
    schema: {
      operationId: 'retrievePayment',
      'x-plinth-sdk': { resource: 'payments', method: 'retrieve' },
      tags: [PAYMENTS],
      summary: 'Retrieve a payment',
      params: PaymentIdParams,
      response: { 200: PaymentRef },
    },
  }),
  listPayments: declareRead({
    method: 'GET',
    path: '/v1/fintech/payments',
    permission: needs('payments', 'read'),
    schema: {
      operationId: 'listPayments',
      'x-plinth-sdk': { resource: 'payments', method: 'list' },
      tags: [PAYMENTS],
      summary: 'List payments, newest first',
      'x-problems': ['resource_not_found'],
      querystring: PaymentListQuery,
      response: { 200: Ref<PaymentList>('PaymentList') },
    },
  }),
  cancelPayment: declareWrite({
    method: 'POST',
    path: '/v1/fintech/payments/:id/cancel',
    permission: needs('payments', 'write'),
    schema: {
      operationId: 'cancelPayment',
      'x-plinth-sdk': { resource: 'payments', method: 'cancel' },
      tags: [PAYMENTS],
      summary: 'Cancel a payment',
      description:
        'Only while `pending_submission`: the hold returns to the available balance, nothing moves. Else 409 ' +
        '`payment_state_invalid`.',
      'x-body-optional': true,
      'x-problems': ['resource_not_found', 'payment_state_invalid'],
      params: PaymentIdParams,
      body: NoBody,
      response: { 200: PaymentRef },
    },
  }),
  simulateInboundPayment: declareWrite({
    method: 'POST',
    path: '/v1/sandbox/fintech/inbound_payments',
    permission: needs('sandbox', 'write'),
    schema: {
      operationId: 'simulateInboundPayment',
      'x-plinth-sdk': { resource: 'sandbox', method: 'inboundPayment' },
      tags: [SANDBOX],
      summary: 'Sandbox: receive a payment',
      description:
        `${SANDBOX_ONLY} Money sent to one of your account numbers (a credit), or pulled from it by ACH debit. It ` +
        'settles at once, or is `returned` moving nothing: R02 (number disabled, account closed), R16 (account ' +
        'frozen), R29 (debits blocked), R01 (debit larger than the available balance).',
      'x-problems': ['permission_denied', 'resource_not_found'],
      body: InboundPaymentBody,
      response: { 200: PaymentRef },
    },
  }),
  simulatePaymentSettlement: declareWrite({
    method: 'POST',
    path: '/v1/sandbox/fintech/payments/:id/settle',
    permission: needs('sandbox', 'write'),
    schema: {
      operationId: 'simulatePaymentSettlement',
      'x-plinth-sdk': { resource: 'sandbox', method: 'settlePayment' },
      tags: [SANDBOX],
      summary: 'Sandbox: settle a payment now',
      description: `${SANDBOX_ONLY} Submits it if it was not, then settles it now; rules apply as they would then.`,
      'x-body-optional': true,
      'x-problems': ['permission_denied', 'resource_not_found', 'payment_state_invalid'],
      params: PaymentIdParams,
      body: NoBody,
      response: { 200: PaymentRef },
    },
  }),
  simulatePaymentReturn: declareWrite({
    method: 'POST',
    path: '/v1/sandbox/fintech/payments/:id/return',
    permission: needs('sandbox', 'write'),
    schema: {
      operationId: 'simulatePaymentReturn',
      'x-plinth-sdk': { resource: 'sandbox', method: 'returnPayment' },
      tags: [SANDBOX],
      summary: 'Sandbox: return an ACH payment',
      description:
        `${SANDBOX_ONLY} Before settlement its hold ends; after it (up to 60 days by the sandbox clock) its transfer ` +
        'is reversed, the reversal’s description carrying the code.',
      'x-problems': ['permission_denied', 'resource_not_found', 'payment_state_invalid', 'insufficient_funds'],
      params: PaymentIdParams,
      body: PaymentReturnBody,
      response: { 200: PaymentRef },
    },
  }),
  simulatePaymentRejection: declareWrite({
    method: 'POST',
    path: '/v1/sandbox/fintech/payments/:id/reject',
    permission: needs('sandbox', 'write'),
    schema: {
      operationId: 'simulatePaymentRejection',
      'x-plinth-sdk': { resource: 'sandbox', method: 'rejectPayment' },
      tags: [SANDBOX],
      summary: 'Sandbox: reject a wire or RTP payment',
      description: `${SANDBOX_ONLY} Before settlement only: its hold ends, nothing moves.`,
      'x-body-optional': true,
      'x-problems': ['permission_denied', 'resource_not_found', 'payment_state_invalid'],
      params: PaymentIdParams,
      body: NoBody,
      response: { 200: PaymentRef },
    },
  }),
  simulateNotificationOfChange: declareWrite({
    method: 'POST',
    path: '/v1/sandbox/fintech/payments/:id/notification_of_change',
    permission: needs('sandbox', 'write'),
    schema: {
      operationId: 'simulateNotificationOfChange',
      'x-plinth-sdk': { resource: 'sandbox', method: 'notificationOfChange' },
      tags: [SANDBOX],
      summary: 'Sandbox: a notification of change for an ACH payment',
      description:
        `${SANDBOX_ONLY} The receiving bank corrects the external account the payment went to: it is updated ` +
        '(`fintech.external_account.updated`). The payment is unchanged.',
      'x-problems': ['permission_denied', 'resource_not_found', 'payment_state_invalid'],
      params: PaymentIdParams,
      body: NotificationOfChangeBody,
      response: { 200: PaymentRef },
    },
  }),
  createPaymentRule: declareWrite({
    method: 'POST',
    path: '/v1/sandbox/fintech/payment_rules',
    permission: needs('sandbox', 'write'),
    schema: {
      operationId: 'createPaymentRule',
      'x-plinth-sdk': { resource: 'sandbox', method: 'createPaymentRule' },
      tags: [SANDBOX],
      summary: 'Sandbox: create a payment rule',
      description:
        `${SANDBOX_ONLY} Payments out that match are returned (ACH) or rejected (wire, RTP) when the rule’s moment ` +
        'comes; the oldest matching rule applies.',
      'x-problems': ['permission_denied'],
      body: PaymentRuleCreateBody,
      response: { 200: Ref<PaymentRule>('PaymentRule') },
    },
  }),
  listPaymentRules: declareRead({
    method: 'GET',
    path: '/v1/sandbox/fintech/payment_rules',
    permission: needs('sandbox', 'read'),
    schema: {
      operationId: 'listPaymentRules',
      'x-plinth-sdk': { resource: 'sandbox', method: 'listPaymentRules' },
      tags: [SANDBOX],
      summary: 'Sandbox: list payment rules, newest first',
      'x-problems': ['permission_denied'],
      querystring: PaymentRuleListQuery,
      response: { 200: Ref<PaymentRuleList>('PaymentRuleList') },
    },
  }),
  deletePaymentRule: declareWrite({
    method: 'DELETE',
    path: '/v1/sandbox/fintech/payment_rules/:id',
    permission: needs('sandbox', 'write'),
    schema: {
      operationId: 'deletePaymentRule',
      'x-plinth-sdk': { resource: 'sandbox', method: 'deletePaymentRule' },
      tags: [SANDBOX],
      summary: 'Sandbox: delete a payment rule',
      'x-problems': ['permission_denied', 'resource_not_found'],
      params: PaymentRuleIdParams,
      response: { 200: Ref<PaymentRuleDeleted>('PaymentRuleDeleted') },
    },
  }),
};

export function paymentsRoutes(app: FastifyInstance, deps: PaymentDeps & { withIdempotency: WithIdempotency }): void {
  for (const schema of [
    AccountNumber,
    AccountNumberList,
    ExternalAccount,
    ExternalAccountList,
    Payment,
    PaymentList,
    PaymentRule,
    PaymentRuleList,
    PaymentRuleDeleted,
  ])
    app.addSchema(schema);
  const rules = ruleBook(deps);
  declareOperations(app, deps, [
    implement(paymentOps.createAccountNumber, { write: (ctx, input) => createAccountNumber(deps, ctx, input.body) }),
    implement(paymentOps.retrieveAccountNumber, {
      read: (owner, input) => retrieveAccountNumber(deps, owner, input.params.id),
    }),
    implement(paymentOps.listAccountNumbers, { read: (owner, input) => listAccountNumbers(deps, owner, input.query) }),
    implement(paymentOps.updateAccountNumber, {
      write: (ctx, input) => updateAccountNumber(deps, ctx, input.params.id, input.body),
    }),
    implement(paymentOps.createExternalAccount, {
      write: (ctx, input) => createExternalAccount(deps, ctx, input.body),
    }),
    implement(paymentOps.retrieveExternalAccount, {
      read: (owner, input) => retrieveExternalAccount(deps, owner, input.params.id),
    }),
    implement(paymentOps.listExternalAccounts, {
      read: (owner, input) => listExternalAccounts(deps, owner, input.query),
    }),
    implement(paymentOps.updateExternalAccount, {
      write: (ctx, input) => updateExternalAccount(deps, ctx, input.params.id, input.body),
    }),
    implement(paymentOps.createPayment, { write: (ctx, input) => createPayment(deps, rules, ctx, input.body) }),
    implement(paymentOps.retrievePayment, { read: (owner, input) => retrievePayment(deps, owner, input.params.id) }),
    implement(paymentOps.listPayments, { read: (owner, input) => listPayments(deps, owner, input.query) }),
    implement(paymentOps.cancelPayment, {
      write: async (ctx, input) =>
        paymentFromRow(await outcomes.cancel(deps, ctx, await lockPayment(ctx, input.params.id))),
    }),
    implement(paymentOps.simulateInboundPayment, {
      write: (ctx, input) => simulateInboundPayment(deps, ctx, input.body),
    }),
    implement(paymentOps.simulatePaymentSettlement, {
      write: (ctx, input) => simulateSettlement(deps, ctx, input.params.id),
    }),
    implement(paymentOps.simulatePaymentReturn, {
      write: (ctx, input) => simulateReturn(deps, ctx, input.params.id, input.body.reason),
    }),
    implement(paymentOps.simulatePaymentRejection, {
      write: (ctx, input) => simulateRejection(deps, ctx, input.params.id),
    }),
    implement(paymentOps.simulateNotificationOfChange, {
      write: (ctx, input) => simulateNotificationOfChange(deps, ctx, input.params.id, input.body),
    }),
    implement(paymentOps.createPaymentRule, { write: (ctx, input) => createPaymentRule(deps, ctx, input.body) }),
    implement(paymentOps.listPaymentRules, { read: (owner, input) => listPaymentRules(deps, owner, input.query) }),
    implement(paymentOps.deletePaymentRule, { write: (ctx, input) => deletePaymentRule(ctx, input.params.id) }),
  ]);
}
