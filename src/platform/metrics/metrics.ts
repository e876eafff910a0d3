import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Database } from '../../db/database.ts';
import { routeOf } from '../http/route-of.ts';

/**
 * The operator's view of one server process, in Prometheus text at /metrics (prom-client): requests by route
 * template, method and status; request latency; database transaction and commit timings and group-commit batch
 * sizes; log lines that could not be written; process metrics. One registry per app, so that several apps in one process (the tests) never share counts.
 * Products and platform features add their own metrics to `registry`.
 */
/** A histogram on the app's registry: its name, what it measures, its buckets and any labels. */
export function histogram<L extends string = never>(
  registry: Registry,
  name: string,
  help: string,
  buckets: number[],
  labelNames: readonly L[] = [],
): Histogram<L> {
  return new Histogram({ name, help, buckets, labelNames, registers: [registry] });
}

export function installMetrics(app: FastifyInstance, database: Database, logDropped: () => number): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['route', 'method', 'status'] as const;
  const requests = new Counter({
    name: 'plinth_http_requests_total',
    help: 'HTTP requests answered',
    labelNames,
    registers: [registry],
  });
  const latency = histogram(
    registry,
    'plinth_http_request_duration_seconds',
    'Time from the request to its answer',
    [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    labelNames,
  );
  const transaction = histogram(
    registry,
    'plinth_db_transaction_duration_seconds',
    'Write transactions, BEGIN to the end of COMMIT (on SQLite one per group commit)',
    [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  );
  const commit = histogram(
    registry,
    'plinth_db_commit_duration_seconds',
    'COMMIT alone: with SQLite synchronous=FULL, the fsync of the WAL',
    [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.1],
  );
  const batch = histogram(
    registry,
    'plinth_db_group_commit_batch_size',
    'Writes that shared one commit (always 1 on PostgreSQL)',
    [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
  );

  const trips = histogram(
    registry,
    'plinth_db_round_trips',
    'PostgreSQL: round trips a write transaction waited for, BEGIN to COMMIT (statements are pipelined)',
    [1, 2, 3, 4, 5, 6, 8, 12, 16],
  );
  const statements = histogram(
    registry,
    'plinth_db_statements',
    'PostgreSQL: statements a write transaction sent, BEGIN and COMMIT included',
    [2, 4, 6, 8, 10, 12, 16, 24, 32, 64],
  );
  new Counter({
    name: 'plinth_log_lines_dropped_total',
    help: 'Log lines given up on because stdout was closed, broken, stuck or too far behind',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(logDropped());
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    const labels = { route: routeOf(request).url ?? 'unmatched', method: request.method, status: reply.statusCode };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  database.onCommit((stats) => {
    transaction.observe(stats.transactionSeconds);
    commit.observe(stats.commitSeconds);
    batch.observe(stats.batchSize);
    if (stats.roundTrips !== undefined) trips.observe(stats.roundTrips);
    if (stats.statements !== undefined) statements.observe(stats.statements);
  });
  return registry;
}
