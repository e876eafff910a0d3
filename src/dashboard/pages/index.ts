import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context.ts';
import { accountPages } from './account.ts';
import { accountsPages } from './accounts.ts';
import { auditPages } from './audit.ts';
import { eventsPages } from './events.ts';
import { externalAccountsPages } from './external-accounts.ts';
import { homePage } from './home.ts';
import { keysPages } from './keys.ts';
import { paymentPages } from './payment.ts';
import { paymentNewPages } from './payment-new.ts';
import { paymentsPages } from './payments.ts';
import { requestsPages } from './requests.ts';
import { sandboxPages } from './sandbox.ts';
import { transferPages } from './transfer.ts';
import { transfersPages } from './transfers.ts';
import { webhookPages } from './webhook.ts';
import { webhookDeletePages } from './webhook-delete.ts';
import { webhooksPages } from './webhooks.ts';

/** Every page of a session, in the navigation's order. */
export function pages(scope: FastifyInstance, ctx: Ctx): void {
  homePage(scope, ctx);
  accountsPages(scope, ctx);
  accountPages(scope, ctx);
  transfersPages(scope, ctx);
  transferPages(scope, ctx);
  paymentsPages(scope, ctx);
  paymentNewPages(scope, ctx);
  paymentPages(scope, ctx);
  externalAccountsPages(scope, ctx);
  eventsPages(scope, ctx);
  webhooksPages(scope, ctx);
  webhookPages(scope, ctx);
  webhookDeletePages(scope, ctx);
  keysPages(scope, ctx);
  requestsPages(scope, ctx);
  auditPages(scope, ctx);
  sandboxPages(scope, ctx);
}
