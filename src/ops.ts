import { clockOps } from './platform/clock/index.ts';
import { eventOps, streamOps } from './platform/events/index.ts';
import { keyOps } from './platform/keys/index.ts';
import { requestOps } from './platform/requests/index.ts';
import { webhookOps } from './platform/webhooks/index.ts';
import { fintechOps } from './products/fintech/index.ts';

/**
 * Every declared operation, by operationId, as a typed value: the dashboard and the CLI call the API's operations
 * through these (`ctx.read(principal, ops.retrieveTransfer, { params: { id } })`: input and result inferred from the
 * operation's schema), never by a string id. Each module exports its own; this is their union.
 */
export const ops = { ...keyOps, ...webhookOps, ...eventOps, ...streamOps, ...clockOps, ...fintechOps, ...requestOps };
