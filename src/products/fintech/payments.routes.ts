import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { needs } from '../../platform/auth/permissions.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, declareWrite, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { accountNumberOps } from './account-numbers.routes.ts';
import { AccountNumber, AccountNumberList } from './account-numbers.schema.ts';
import {
  createAccountNumber,
  listAccountNumbers,
  retrieveAccountNumber,
  updateAccountNumber,
} from './account-numbers.service.ts';
import { externalAccountOps } from './external-accounts.routes.ts';
import { ExternalAccount, ExternalAccountList } from './external-accounts.schema.ts';
import {
  createExternalAccount,
  listExternalAccounts,
  retrieveExternalAccount,
  updateExternalAccount,
} from './external-accounts.service.ts';
import { simulateInboundPayment } from './payments.inbound.ts';
import { createPaymentRule, deletePaymentRule, listPaymentRules, ruleBook } from './payments.rules.ts';
import { paymentSimulationOps } from './payments.sandbox.routes.ts';
import { PaymentRule, PaymentRuleDeleted, PaymentRuleList } from './payments.sandbox.schema.ts';
import {
  simulateNotificationOfChange,
  simulateRejection,
  simulateReturn,
  simulateSettlement,
} from './payments.sandbox.ts';
import { Payment, PaymentCreateBody, PaymentIdParams, PaymentList, PaymentListQuery } from './payments.schema.ts';
import { createPayment, listPayments, lockPayment, type PaymentDeps, retrievePayment } from './payments.service.ts';
import { outcomes } from './payments.steps.ts';
import { paymentFromRow } from './payments.view.ts';

const _NUMBERS = 'Fintech account numbers';
const PAYMENTS = 'Fintech payments';
const _SANDBOX = 'Fintech payment simulations';

const NoBody = Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] });
const PaymentRef = Ref<Payment>('Payment');
const _SANDBOX_ONLY = 'Sandbox keys only (a live key: 403 `permission_denied`).';

/** Payments' operations, declared: what the dashboard and the CLI name (`ops.createPayment`). */
export const paymentOps = {
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
    implement(accountNumberOps.createAccountNumber, {
      write: (ctx, input) => createAccountNumber(deps, ctx, input.body),
    }),
    implement(accountNumberOps.retrieveAccountNumber, {
      read: (owner, input) => retrieveAccountNumber(deps, owner, input.params.id),
    }),
    implement(accountNumberOps.listAccountNumbers, {
      read: (owner, input) => listAccountNumbers(deps, owner, input.query),
    }),
    implement(accountNumberOps.updateAccountNumber, {
      write: (ctx, input) => updateAccountNumber(deps, ctx, input.params.id, input.body),
    }),
    implement(externalAccountOps.createExternalAccount, {
      write: (ctx, input) => createExternalAccount(deps, ctx, input.body),
    }),
    implement(externalAccountOps.retrieveExternalAccount, {
      read: (owner, input) => retrieveExternalAccount(deps, owner, input.params.id),
    }),
    implement(externalAccountOps.listExternalAccounts, {
      read: (owner, input) => listExternalAccounts(deps, owner, input.query),
    }),
    implement(externalAccountOps.updateExternalAccount, {
      write: (ctx, input) => updateExternalAccount(deps, ctx, input.params.id, input.body),
    }),
    implement(paymentOps.createPayment, { write: (ctx, input) => createPayment(deps, rules, ctx, input.body) }),
    implement(paymentOps.retrievePayment, { read: (owner, input) => retrievePayment(deps, owner, input.params.id) }),
    implement(paymentOps.listPayments, { read: (owner, input) => listPayments(deps, owner, input.query) }),
    implement(paymentOps.cancelPayment, {
      write: async (ctx, input) =>
        paymentFromRow(await outcomes.cancel(deps, ctx, await lockPayment(ctx, input.params.id))),
    }),
    implement(paymentSimulationOps.simulateInboundPayment, {
      write: (ctx, input) => simulateInboundPayment(deps, ctx, input.body),
    }),
    implement(paymentSimulationOps.simulatePaymentSettlement, {
      write: (ctx, input) => simulateSettlement(deps, ctx, input.params.id),
    }),
    implement(paymentSimulationOps.simulatePaymentReturn, {
      write: (ctx, input) => simulateReturn(deps, ctx, input.params.id, input.body.reason),
    }),
    implement(paymentSimulationOps.simulatePaymentRejection, {
      write: (ctx, input) => simulateRejection(deps, ctx, input.params.id),
    }),
    implement(paymentSimulationOps.simulateNotificationOfChange, {
      write: (ctx, input) => simulateNotificationOfChange(deps, ctx, input.params.id, input.body),
    }),
    implement(paymentSimulationOps.createPaymentRule, {
      write: (ctx, input) => createPaymentRule(deps, ctx, input.body),
    }),
    implement(paymentSimulationOps.listPaymentRules, {
      read: (owner, input) => listPaymentRules(deps, owner, input.query),
    }),
    implement(paymentSimulationOps.deletePaymentRule, {
      write: (ctx, input) => deletePaymentRule(ctx, input.params.id),
    }),
  ]);
}
