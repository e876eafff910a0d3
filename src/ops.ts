import { auditOps } from './modules/audit/index.ts';
import { clockOps } from './modules/clock/index.ts';
import { eventOps, streamOps } from './modules/events/index.ts';
import { keyOps } from './modules/keys/index.ts';
import { requestOps } from './modules/requests/index.ts';
import { webhookOps } from './modules/webhooks/index.ts';
import { fintechOps } from './products/fintech/index.ts';

/**
 * Every declared operation, by operationId, as a typed value: the dashboard and the CLI call the API's operations
 * through these (`ctx.read(principal, ops.retrieveTransfer, { params: { id } })`: input and result inferred from the
 * operation's schema), never by a string id. Each module exports its own; this is their union.
 */
export const ops = {
  ...keyOps,
  ...webhookOps,
  ...eventOps,
  ...streamOps,
  ...auditOps,
  ...clockOps,
  ...fintechOps,
  ...requestOps,
};
