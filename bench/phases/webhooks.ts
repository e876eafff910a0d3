/**
 * Webhook delivery under load (issues 13 and 33): Plinth on SQLite with one enabled endpoint that subscribes to every
 * event, pointing at a local receiver that answers 200 at once. The create load runs as usual; the receiver counts
 * what arrives during it (events delivered while creates run), then the backlog is left to drain (bounded) and the
 * create rate is compared with a plain create run of the same bench.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { type Load, loadCreate, loadCreatePaced } from '../lib/load.ts';
import { startPlinth } from '../lib/plinth.ts';
import { stop } from '../lib/process.ts';

/** The lag the issue allows an event at p99: one answered within it before the load ended may still be on its way. */
const LAG_BUDGET_MS = 1000;

export interface WebhookResults {
  create: Load;
  /** Deliveries the receiver got while the create load ran, per second. */
  deliveredPerSecond: number;
  /** Deliveries the receiver got while the create load ran. */
  deliveredDuringLoad: number;
  /** Seconds after the load until every event was delivered; null when it had not drained within the bound. */
  drainSeconds: number | null;
  events: number;
  /** Deliveries per second after the load, until the backlog was gone (null: it was not within the bound). */
  drainPerSecond: number | null;
}

const DRAIN_BOUND_MS = 120_000;
/** The paced load's warm-up (BENCH_WEBHOOK_WARMUP_SECONDS), not counted. */
const WARMUP_SECONDS = Number(process.env.BENCH_WEBHOOK_WARMUP_SECONDS ?? 5);

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
    const drainSeconds = (performance.now() - drainStart) / 1000;
    return {
      create,
      deliveredPerSecond: duringLoad / loadSeconds,
      deliveredDuringLoad: duringLoad,
      drainSeconds: drained ? drainSeconds : null,
      events,
      drainPerSecond: drained ? (events - duringLoad) / drainSeconds : null,
    };
  } finally {
    await stop(server);
    receiver.close();
  }
}

/** The paced load (issue 44): creates at a steady rate, each event timed from its create's answer to its arrival. */
export interface PacedWebhookResults {
  /** The rate asked of autocannon (`overallRate`), creates/s. */
  rate: number;
  create: Load;
  events: number;
  /** Events whose delivery arrived while the load ran. */
  deliveredDuringLoad: number;
  /** Events not yet delivered when the load ended. */
  leftAtEnd: number;
  /**
   * Of those, the ones answered more than LAG_BUDGET_MS before the load ended: a backlog. An event whose create was
   * answered in the load's last second is still on its way within the lag the issue allows, not left to drain.
   */
  backlogAtEnd: number;
  /** Seconds after the load until the last event arrived (0: none was left); null when not within the bound. */
  drainSeconds: number | null;
  /** From a create's 2xx answer to its event's arrival at the receiver, ms (null: nothing arrived). */
  lag: { p50: number; p99: number; max: number } | null;
  /** Connections the receiver accepted over the phase (the delivery process keeps them alive between attempts). */
  connections: number;
  /** The p99 lag of the events created in the load's second half (ms). */
  lagSecondHalfP99: number | null;
  /** The server's own histogram (plinth_webhook_delivery_latency_seconds): successes, and those within 0.5 s / 1 s. */
  histogram: { count: number; within500ms: number; within1s: number } | null;
}

/** One `le` bucket and the count of a histogram, from a Prometheus text scrape. */
function histogramOf(text: string, name: string): PacedWebhookResults['histogram'] {
  const value = (suffix: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}${suffix}`));
    return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const count = value('_count');
  if (count === null) return null;
  return { count, within500ms: value('_bucket{le="0.5"}') ?? 0, within1s: value('_bucket{le="1"}') ?? 0 };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * Webhooks at a real load (issue 44): the create load paced at `rate` (half the most the server answered, measured
 * in the same run) after a warm-up of the same load (not counted), one endpoint for every event, a receiver answering 200 at once. Each event's lag is timed from
 * its create's answer (autocannon's onResponse) to its arrival (both clocks this process's); after the load, the
 * time the rest took to arrive.
 */
export async function webhookPacedPhase(dir: string, rate: number): Promise<PacedWebhookResults> {
  const answeredAt = new Map<string, number>();
  const arrivedAt = new Map<string, number>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const now = performance.now();
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { object?: { id?: string } } };
      const id = event.data?.object?.id;
      if (id !== undefined && !arrivedAt.has(id)) arrivedAt.set(id, now);
      response.end('ok');
    });
  });
  let connections = 0;
  receiver.on('connection', () => connections++);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const server = await startPlinth({
    databaseUrl: `sqlite:${join(dir, 'webhooks-paced.db')}`,
    dir,
    name: 'sqlite-webhooks-paced',
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on', ...deliverySettings() },
  });
  try {
    const made = await fetch(`http://127.0.0.1:${server.port}/v1/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: server.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ url, enabled_events: ['*'] }),
    });
    if (made.status !== 200) throw new Error(`endpoint create answered ${made.status}: ${await made.text()}`);
    // A server that has run a while: the same paced load for WARMUP_SECONDS first (its events delivered, not
    // counted), so that the lag measured is not the delivery process's first seconds of compiling its code.
    let warm = 0;
    await loadCreatePaced(server.port, server.authorization, rate, () => warm++, { seconds: WARMUP_SECONDS });
    const warmStart = performance.now();
    while (arrivedAt.size < warm && performance.now() - warmStart < DRAIN_BOUND_MS)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    const create = await loadCreatePaced(server.port, server.authorization, rate, (body) => {
      answeredAt.set((JSON.parse(body) as { id: string }).id, performance.now());
    });
    const ended = performance.now();
    const events = answeredAt.size;
    const arrived = () => [...answeredAt.keys()].filter((id) => arrivedAt.has(id)).length;
    const deliveredDuringLoad = [...answeredAt.keys()].filter((id) => (arrivedAt.get(id) ?? Infinity) <= ended).length;
    while (arrived() < events && performance.now() - ended < DRAIN_BOUND_MS)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const last = Math.max(ended, ...[...answeredAt.keys()].map((id) => arrivedAt.get(id) ?? ended));
    const lagsOf = (from: number) =>
      [...answeredAt]
        .filter(([id, at]) => arrivedAt.has(id) && at >= from)
        .map(([id, at]) => Math.max(0, arrivedAt.get(id)! - at))
        .sort((a, b) => a - b);
    const lags = lagsOf(started);
    const secondHalf = lagsOf((started + ended) / 2);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the last attempts' reports reach /metrics
    const scrape = await fetch(`http://127.0.0.1:${server.port}/metrics`, {
      headers: { authorization: 'Bearer bench-metrics-token' },
    });
    const text = await scrape.text();
    return {
      rate,
      create,
      events,
      deliveredDuringLoad,
      leftAtEnd: events - deliveredDuringLoad,
      backlogAtEnd: [...answeredAt].filter(([id, at]) => at <= ended - LAG_BUDGET_MS && !(arrivedAt.get(id)! <= ended))
        .length,
      drainSeconds: arrived() >= events ? (last - ended) / 1000 : null,
      lag:
        lags.length === 0 ? null : { p50: quantile(lags, 0.5), p99: quantile(lags, 0.99), max: lags[lags.length - 1]! },
      connections,
      lagSecondHalfP99: secondHalf.length === 0 ? null : quantile(secondHalf, 0.99),
      histogram: scrape.status === 200 ? histogramOf(text, 'plinth_webhook_delivery_latency_seconds') : null,
    };
  } finally {
    await stop(server);
    receiver.close();
  }
}

/** The paced load's figures against issue 44's targets, as lines for a report. */
export function pacedLines(r: PacedWebhookResults): string[] {
  const share = r.events === 0 ? 0 : r.deliveredDuringLoad / r.events;
  const lag =
    r.lag === null
      ? 'n/a'
      : `p50 ${r.lag.p50.toFixed(0)} ms, p99 ${r.lag.p99.toFixed(0)} ms, max ${r.lag.max.toFixed(0)} ms`;
  const h = r.histogram;
  const drained = r.drainSeconds === null ? 'not within 120 s' : `${r.drainSeconds.toFixed(1)} s`;
  return [
    `paced creates (overallRate ${r.rate}/s): ${r.create.rps.toFixed(0)} req/s, p99 ${r.create.p99} ms, ` +
      `${r.create.non2xx} non-2xx (CPU pressure ${r.create.pressure.cpu === null ? 'n/a' : `${(r.create.pressure.cpu * 100).toFixed(0)}%`})`,
    `events delivered during the paced load / made: ${r.deliveredDuringLoad} / ${r.events} = ${share.toFixed(3)} ` +
      '(wanted ≥ 0.95)',
    `lag from a create's answer to its event's arrival: ${lag} (wanted p99 ≤ 1,000 ms); in the load's second ` +
      `half p99 ${r.lagSecondHalfP99 === null ? 'n/a' : `${r.lagSecondHalfP99.toFixed(0)} ms`}`,
    `left when the load ended: ${r.leftAtEnd}, of which answered more than ${LAG_BUDGET_MS} ms before its end ` +
      `(a backlog): ${r.backlogAtEnd} (wanted none); all arrived ${drained} after it; the receiver ` +
      `accepted ${r.connections} connections in all`,
    h === null
      ? 'plinth_webhook_delivery_latency_seconds: not scraped'
      : `plinth_webhook_delivery_latency_seconds (creation to 2xx): ${h.count} successes, ` +
        `${((h.within500ms / Math.max(1, h.count)) * 100).toFixed(1)}% within 0.5 s, ` +
        `${((h.within1s / Math.max(1, h.count)) * 100).toFixed(1)}% within 1 s`,
  ];
}
