import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import type { Clock } from '../../platform/kit/time.ts';
import type { EventRecorder } from '../../platform/outbox/emit.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { type Resolver, systemResolver } from '../../platform/ssrf.ts';
import { deliveriesRoutes } from './api/deliveries.routes.ts';
import { endpointsRoutes } from './api/endpoints.routes.ts';
import { signingSecrets } from './engine/signing-secrets.ts';
import { type DeliveryWorkers, deliveryWorkers } from './engine/worker.ts';
import type { WebhooksConfig } from './settings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The webhook delivery workers of this process. server.ts never starts them: its delivery processes deliver
     * (src/deliver.ts), and these relay pokes to them and count their attempts; tests start them in-process.
     */
    webhookDelivery: DeliveryWorkers;
  }
}

export interface WebhooksDeps {
  config: WebhooksConfig;
  database: Database;
  clock: Clock;
  events: EventRecorder;
  withIdempotency: WithIdempotency;
  /** Name resolution for the SSRF checks; tests inject one so that no name is ever looked up outside. */
  resolve?: Resolver;
  /** Seals signing secrets at rest (platform/secrets). */
  secrets: SecretBox;
}

/** Webhooks: endpoints' and deliveries' routes, and the delivery workers (built here, not started: server.ts does). */
export function installWebhooks(app: FastifyInstance, deps: WebhooksDeps): void {
  const { config, database, clock, withIdempotency } = deps;
  const box = signingSecrets(deps.secrets);
  const resolve = deps.resolve ?? systemResolver;
  const workers = deliveryWorkersFor(config, { database, clock, box, log: app.log, resolve, shared: false });
  app.decorate('webhookDelivery', workers);
  // A commit may have made deliveries due; look now rather than at the next poll (a read, no write, when idle).
  database.onCommit(() => workers.poke());
  app.addHook('onClose', () => workers.stop(0));

  const endpointDeps = {
    db: database.db,
    write: database.write,
    clock,
    box,
    events: deps.events,
    resolve,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    withIdempotency,
  };
  deliveriesRoutes(app, { withIdempotency, poke: workers.poke });
  endpointsRoutes(app, endpointDeps);
}

/**
 * The delivery workers as the settings make them: for the API process (built, not started, by `installWebhooks`) and
 * for each delivery process (src/deliver.ts), which share the database with others (`shared`).
 */
export function deliveryWorkersFor(
  config: WebhooksConfig,
  deps: {
    database: Database;
    clock: Clock;
    box: ReturnType<typeof signingSecrets>;
    log: FastifyBaseLogger;
    resolve: Resolver;
    shared: boolean;
  },
): DeliveryWorkers {
  return deliveryWorkers({
    database: deps.database,
    clock: deps.clock,
    box: deps.box,
    log: deps.log,
    schedule: config.WEBHOOK_RETRY_SCHEDULE,
    concurrency: config.WEBHOOK_CONCURRENCY,
    shared: deps.shared,
    attempt: {
      timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      resolve: deps.resolve,
      allowPrivateSandbox: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    },
  });
}
