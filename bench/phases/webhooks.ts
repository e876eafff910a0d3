/**
 * Webhook delivery under load (issues 13 and 33): Plinth on SQLite with one enabled endpoint that subscribes to every
 * event, pointing at a local receiver that answers 200 at once. The create load runs as usual; the receiver counts
 * what arrives during it (events delivered while creates run), then the backlog is left to drain (bounded) and the
 * create rate is compared with a plain create run of the same bench.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { type Load, loadCreate } from '../lib/load.ts';
import { startPlinth } from '../lib/plinth.ts';
import { stop } from '../lib/process.ts';

export interface WebhookResults {
  create: Load;
  /** Deliveries the receiver got while the create load ran, per second. */
  deliveredPerSecond: number;
  /** Deliveries the receiver got while the create load ran. */
  deliveredDuringLoad: number;
  /** Seconds after the load until every event was delivered; null when it had not drained within the bound. */
  drainSeconds: number | null;
  events: number;
}

const DRAIN_BOUND_MS = 120_000;

/** WEBHOOK_CONCURRENCY and WEBHOOK_WORKERS from the bench's environment, to compare settings; defaults otherwise. */
export function deliverySettings(): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const name of ['WEBHOOK_CONCURRENCY', 'WEBHOOK_WORKERS']) {
    const value = process.env[name];
    if (value !== undefined) settings[name] = value;
  }
  return settings;
}

export async function webhookPhase(dir: string): Promise<WebhookResults> {
  let delivered = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      delivered++;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const server = await startPlinth({
    databaseUrl: `sqlite:${join(dir, 'webhooks.db')}`,
    dir,
    name: 'sqlite-webhooks',
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on', ...deliverySettings() },
  });
  try {
    const made = await fetch(`http://127.0.0.1:${server.port}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: server.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ url, enabled_events: ['*'] }),
    });
    if (made.status !== 200) throw new Error(`endpoint create answered ${made.status}: ${await made.text()}`);
    const before = delivered;
    const started = performance.now();
    const create = await loadCreate(server.port, server.authorization);
    const loadSeconds = (performance.now() - started) / 1000;
    const duringLoad = delivered - before;
    const events = create.ok; // one fintech.account.created per created account
    const drainStart = performance.now();
    while (delivered - before < events && performance.now() - drainStart < DRAIN_BOUND_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const drained = delivered - before >= events;
    return {
      create,
      deliveredPerSecond: duringLoad / loadSeconds,
      deliveredDuringLoad: duringLoad,
      drainSeconds: drained ? (performance.now() - drainStart) / 1000 : null,
      events,
    };
  } finally {
    await stop(server);
    receiver.close();
  }
}
