import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * The cluster supervisor (src/supervisor.ts, WEB_CONCURRENCY > 1) on /metrics. The supervisor serves no HTTP; the
 * workers do, so it sends every worker its figures over the cluster's IPC channel after each change, and whichever
 * worker answers a scrape shows the supervisor's latest word.
 */
export interface SupervisorReport {
  type: 'plinth.supervisor';
  /** WEB_CONCURRENCY minus the workers listening now: above 0 while a replacement cannot start. */
  workersMissing: number;
  /** Workers that exited before they listened, since the supervisor started. */
  startFailures: number;
}

export interface SupervisorView {
  /** The latest report heard; null before the first. */
  latest(): SupervisorReport | null;
}

function isReport(message: unknown): message is SupervisorReport {
  return (
    typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'plinth.supervisor'
  );
}

/** A worker's side: keeps the latest report its supervisor sent on `channel` (the worker's `process`). */
export function listenToSupervisor(channel: NodeJS.EventEmitter): SupervisorView {
  let latest: SupervisorReport | null = null;
  channel.on('message', (message: unknown) => {
    if (isReport(message)) latest = message;
  });
  return { latest: () => latest };
}

export function registerSupervisorMetrics(registry: Registry, supervisor: SupervisorView): void {
  new Gauge({
    name: 'plinth_supervisor_workers_missing',
    help: 'WEB_CONCURRENCY minus the workers listening, as the supervisor last reported it',
    registers: [registry],
    collect() {
      const report = supervisor.latest();
      if (report) this.set(report.workersMissing);
    },
  });
  new Counter({
    name: 'plinth_supervisor_worker_start_failures_total',
    help: 'Workers that exited before they listened, since the supervisor started',
    registers: [registry],
    collect() {
      const report = supervisor.latest();
      if (!report) return;
      this.reset();
      this.inc(report.startFailures);
    },
  });
}
