import { Counter, Gauge, type Registry } from 'prom-client';
import { histogram } from '../../../platform/metrics/metrics.ts';
import type { WebhookMetrics } from './worker.ts';

/** Organisations named in plinth_webhook_backlog_by_org; the others are summed per mode as `org="other"`. */
export const BACKLOG_TOP_ORGS = 10;

/**
 * Webhook delivery on /metrics: attempts by outcome, how long they took, how late successes were, the backlog (in
 * all, and for the organisations with the largest ones), and the attempts in flight in this process by mode.
 */
export function registerWebhookMetrics(registry: Registry, webhooks: WebhookMetrics): void {
  const attempts = new Counter({
    name: 'plinth_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const duration = histogram(
    registry,
    'plinth_webhook_attempt_duration_seconds',
    'One delivery attempt, connecting included',
    [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
  );
  const latency = histogram(
    registry,
    'plinth_webhook_delivery_latency_seconds',
    "From an event's creation to its receiver's 2xx answer",
    // Fine below 2.5 s (the aim: ≤ 1 s at p99 under load), then coarse: retries wait minutes to a day.
    [0.05, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 30, 300, 3600, 86_400],
  );
  new Gauge({
    name: 'plinth_webhook_backlog',
    help: 'Deliveries not yet settled (due, or waiting for a retry)',
    registers: [registry],
    async collect() {
      this.set(await webhooks.backlog());
    },
  });
  new Gauge({
    name: 'plinth_webhook_backlog_by_org',
    help:
      `Deliveries not yet settled, for the ${BACKLOG_TOP_ORGS} organisations (and modes) with the most; ` +
      'org="other" sums the rest of each mode',
    labelNames: ['org', 'mode'] as const,
    registers: [registry],
    async collect() {
      // Rebuilt at every scrape: an organisation whose backlog is no longer among the largest leaves the series.
      this.reset();
      const other = { live: 0, sandbox: 0 };
      for (const [i, { orgId, mode, pending }] of (await webhooks.backlogByOrg()).entries()) {
        if (i < BACKLOG_TOP_ORGS) this.set({ org: orgId, mode }, pending);
        else other[mode] += pending;
      }
      for (const mode of ['live', 'sandbox'] as const) this.set({ org: 'other', mode }, other[mode]);
    },
  });
  new Gauge({
    name: 'plinth_webhook_attempts_in_flight',
    help: 'Delivery attempts this process is making now, by mode (see docs/api.md, "Delivery policy")',
    labelNames: ['mode'] as const,
    registers: [registry],
    collect() {
      const inFlight = webhooks.inFlight();
      for (const mode of ['live', 'sandbox'] as const) this.set({ mode }, inFlight[mode]);
    },
  });
  webhooks.onAttempt(({ outcome, durationSeconds, latencySeconds }) => {
    attempts.inc({ outcome });
    duration.observe(durationSeconds);
    if (latencySeconds !== undefined) latency.observe(latencySeconds);
  });
}
