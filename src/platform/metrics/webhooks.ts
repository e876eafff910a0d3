import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { WebhookMetrics } from '../webhooks/worker.ts';

/** Webhook delivery on /metrics: attempts by outcome, how long they took, how late successes were, the backlog. */
export function registerWebhookMetrics(registry: Registry, webhooks: WebhookMetrics): void {
  const attempts = new Counter({
    name: 'plinth_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'plinth_webhook_attempt_duration_seconds',
    help: 'One delivery attempt, connecting included',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'plinth_webhook_delivery_latency_seconds',
    help: "From an event's creation to its successful delivery",
    buckets: [0.05, 0.1, 0.5, 1, 5, 30, 300, 3600, 86_400],
    registers: [registry],
  });
  new Gauge({
    name: 'plinth_webhook_backlog',
    help: 'Deliveries not yet settled (due, or waiting for a retry)',
    registers: [registry],
    async collect() {
      this.set(await webhooks.backlog());
    },
  });
  webhooks.onAttempt(({ outcome, durationSeconds, latencySeconds }) => {
    attempts.inc({ outcome });
    duration.observe(durationSeconds);
    if (latencySeconds !== undefined) latency.observe(latencySeconds);
  });
}
