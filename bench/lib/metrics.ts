/**
 * Reading a Plinth server's /metrics (Prometheus text, METRICS_TOKEN of bench/lib/plinth.ts): its histograms, from
 * every worker. With WEB_CONCURRENCY > 1 each worker keeps its own registry and answers the scrapes it accepts;
 * node:cluster hands new connections to the workers in turn, so scrapes on fresh connections reach each of them, and
 * each worker is told apart by its own figures (start time, request counts, numbering lag).
 */
import http from 'node:http';

export const METRICS_TOKEN = 'bench-metrics-token';

export interface Histogram {
  /** Cumulative counts by upper bound, ascending, +Inf last. */
  buckets: [number, number][];
  sum: number;
  count: number;
}

/** One scrape on a connection of its own (so that each reaches the next worker). */
export function scrape(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: '/metrics',
        agent: false,
        headers: { authorization: `Bearer ${METRICS_TOKEN}`, connection: 'close' },
        timeout: 10_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          response.statusCode === 200 ? resolve(text) : reject(new Error(`/metrics answered ${response.statusCode}`)),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error('/metrics: no answer in 10 s')));
    request.on('error', reject);
  });
}

const sampleValue = (line: string) => Number(line.slice(line.lastIndexOf(' ') + 1));

/** The histogram `name` (all its label sets added up), or null when the server has no such metric. */
export function histogram(text: string, name: string): Histogram | null {
  const byBound = new Map<number, number>();
  let sum = 0;
  let count = 0;
  let found = false;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}_bucket{`)) {
      found = true;
      const le = /le="([^"]+)"/.exec(line)?.[1] ?? '+Inf';
      const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
      byBound.set(bound, (byBound.get(bound) ?? 0) + sampleValue(line));
    } else if (line.startsWith(`${name}_sum`)) sum += sampleValue(line);
    else if (line.startsWith(`${name}_count`)) count += sampleValue(line);
  }
  if (!found) return null;
  return { buckets: [...byBound].sort((a, b) => a[0] - b[0]), sum, count };
}

/** `a + b` (two workers) or `a - b` (a delta between two scrapes of one server), bucket by bucket. */
export function combine(a: Histogram, b: Histogram, sign: 1 | -1 = 1): Histogram {
  const other = new Map(b.buckets);
  return {
    buckets: a.buckets.map(([bound, n]) => [bound, n + sign * (other.get(bound) ?? 0)]),
    sum: a.sum + sign * b.sum,
    count: a.count + sign * b.count,
  };
}

/** The share of observations at most `bound` (a bucket bound). */
export function shareAtMost(h: Histogram, bound: number): number {
  if (h.count === 0) return 1;
  return (h.buckets.find(([b]) => b >= bound)?.[1] ?? h.count) / h.count;
}

/** The q-quantile as Prometheus' histogram_quantile estimates it: linear within the bucket that holds it. */
export function quantile(h: Histogram, q: number): number | null {
  if (h.count === 0) return null;
  const rank = q * h.count;
  let lower = 0;
  let below = 0;
  for (const [bound, cumulative] of h.buckets) {
    if (cumulative >= rank) {
      if (bound === Number.POSITIVE_INFINITY) return lower;
      return lower + ((bound - lower) * (rank - below)) / Math.max(cumulative - below, 1);
    }
    lower = bound;
    below = cumulative;
  }
  return lower;
}

// The lines that tell one worker from another once a load is over: they no longer move.
const IDENTITY =
  /^(process_start_time_seconds|plinth_event_numbering_lag_seconds_(count|sum)|plinth_http_requests_total)/;
const identity = (text: string) =>
  text
    .split('\n')
    .filter((line) => IDENTITY.test(line) && !line.includes('route="/metrics"'))
    .join('\n');

/** One scrape per worker (`workers` of them), each found by scraping on fresh connections until all have answered. */
export async function scrapeWorkers(port: number, workers: number): Promise<string[]> {
  const seen = new Map<string, string>();
  for (let i = 0; i < workers * 6 && seen.size < workers; i++) {
    const text = await scrape(port);
    seen.set(identity(text), text);
  }
  if (seen.size < workers) process.stderr.write(`bench: /metrics: ${seen.size} of ${workers} workers answered\n`);
  return [...seen.values()];
}

/** The histograms `names` summed over every worker of a server; null for one the server does not have. */
export async function serverHistograms(port: number, workers: number, names: string[]): Promise<(Histogram | null)[]> {
  const texts = await scrapeWorkers(port, workers);
  return names.map((name) => {
    const each = texts.map((text) => histogram(text, name));
    if (each.some((h) => h === null)) return null;
    return (each as Histogram[]).reduce((a, b) => combine(a, b));
  });
}
