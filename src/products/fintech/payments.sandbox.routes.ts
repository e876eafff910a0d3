import { Type } from 'typebox';
import { needs } from '../../platform/auth/permissions.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, declareWrite } from '../../platform/operations/operation.ts';
import {
  InboundPaymentBody,
  NotificationOfChangeBody,
  PaymentReturnBody,
  type PaymentRule,
  PaymentRuleCreateBody,
  type PaymentRuleDeleted,
  PaymentRuleIdParams,
  type PaymentRuleList,
  PaymentRuleListQuery,
} from './payments.sandbox.schema.ts';
import { type Payment, PaymentIdParams } from './payments.schema.ts';

const SANDBOX = 'Fintech payment simulations';
const NoBody = Type.Object({}, { additionalProperties: false, description: 'No body, or `{}`.', examples: [{}] });
const PaymentRef = Ref<Payment>('Payment');
const SANDBOX_ONLY = 'Sandbox keys only (a live key: 403 `permission_denied`).';

/** The sandbox's payment simulations and rules, declared (payments.routes.ts binds them). */
export const paymentSimulationOps = {
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
