import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { eventsRoutes } from '../events/events.routes.ts';
import { startEventPurge } from '../events/purge.ts';
import type { WithIdempotency } from '../idempotency/idempotency.ts';
import type { Clock } from '../kit/time.ts';
import type { SecretBox as Box } from '../secrets/box.ts';
import { deliveriesRoutes } from './deliveries.routes.ts';
import { endpointsRoutes } from './endpoints.routes.ts';
import { webhookSecretBox } from './secret-box.ts';
import { type Resolver, systemResolver } from './ssrf.ts';
import { type DeliveryWorkers, deliveryWorkers } from './worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhook delivery workers: server.ts starts them after listening and stops them on shutdown. */
    webhookDelivery: DeliveryWorkers;
  }
}

export interface WebhooksDeps {
  config: Config;
  database: Database;
  clock: Clock;
  withIdempotency: WithIdempotency;
  /** Name resolution for the SSRF checks; tests inject one so that no name is ever looked up outside. */
  resolve?: Resolver;
  /** Seals signing secrets at rest (platform/secrets). */
  secrets: Box;
}

const PURGE_INTERVAL_MS = 3_600_000;

/** The OpenAPI tags of events and webhooks. */
export const WEBHOOK_TAGS = [
  {
    name: 'Events',
    description:
      'What happened, in order: each event carries a `sequence`, +1 per event of the organisation and mode, ' +
      'with no gaps, in commit order.',
  },
  {
    name: 'Webhooks',
    description:
      'Endpoints that receive events as signed POSTs (Standard Webhooks v1), at least once, with a delivery ' +
      'log and replay.',
  },
];

/** API requests in flight at which the process counts as busy and webhook deliveries yield to it. */
export const BUSY_IN_FLIGHT = 8;
/**
 * How long the process still counts as busy after it last had BUSY_IN_FLIGHT requests in flight. Under load the
 * count dips for a moment after every group commit (its answers have just left, the next requests are on their way),
 * and that is exactly when a commit wakes the delivery workers: without this, they took the dip for a quiet moment.
 */
export const BUSY_HOLD_MS = 250;

/** Whether BUSY_IN_FLIGHT or more requests (counted from arrival to the socket's close) were in flight just now. */
function apiBusy(app: FastifyInstance): () => boolean {
  let inFlight = 0;
  let lastBusy = Number.NEGATIVE_INFINITY;
  const finished = () => {
    inFlight--;
  };
  app.addHook('onRequest', (_request, reply, done) => {
    if (++inFlight >= BUSY_IN_FLIGHT) lastBusy = performance.now();
    reply.raw.once('close', finished);
    done();
  });
  return () => inFlight >= BUSY_IN_FLIGHT || performance.now() - lastBusy < BUSY_HOLD_MS;
}

/** Events and webhooks: their routes, the retention purge, and the delivery workers (built here, not started). */
export function installWebhooks(app: FastifyInstance, deps: WebhooksDeps): void {
  const { config, database, clock, withIdempotency } = deps;
  const box = webhookSecretBox(deps.secrets);
  const resolve = deps.resolve ?? systemResolver;
  const workers = deliveryWorkers({
    database,
    clock,
    box,
    log: app.log,
    schedule: config.WEBHOOK_RETRY_SCHEDULE,
    concurrency: config.WEBHOOK_CONCURRENCY,
    busy: apiBusy(app),
    attempt: {
      timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      resolve,
      allowPrivateSandbox: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
  });
  app.decorate('webhookDelivery', workers);
  // A commit may have made deliveries due; look now rather than at the next poll (a read, no write, when idle).
  database.onCommit(() => workers.poke());
  app.addHook('onClose', () => workers.stop(0));
  const retentionMs = config.EVENT_RETENTION_DAYS * 86_400_000;
  const stopPurge = startEventPurge(database, clock, retentionMs, PURGE_INTERVAL_MS, app.log);
  app.addHook('onClose', async () => stopPurge());

  const endpointDeps = {
    db: database.db,
    write: database.write,
    clock,
    box,
    resolve,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    withIdempotency,
  };
  deliveriesRoutes(app, { clock, withIdempotency, poke: workers.poke });
  endpointsRoutes(app, endpointDeps);
  eventsRoutes(app, { db: database.db });
}
