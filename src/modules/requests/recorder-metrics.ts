import { Counter, Gauge, type Registry } from 'prom-client';

/** Organisations named in plinth_request_log_dropped_by_org_total; the others are summed as `org="other"`. */
export const DROPPED_TOP_ORGS = 10;
/** Organisations whose drops are remembered one by one; drops of any further ones count only in `other`. */
const DROPPED_ORGS_KEPT = 10_000;

export type DropReason = 'buffer_full' | 'write_failed' | 'stopped';

/**
 * The recorder on /metrics: entries written, entries dropped by reason and by organisation (the ten with the most
 * since the process started, and `other`: bounded, as plinth_webhook_backlog_by_org is), entries held.
 */
export function recorderMetrics(registry: Registry, held: () => number) {
  const written = new Counter({
    name: 'plinth_request_log_written_total',
    help: 'Request log entries written to the database',
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'plinth_request_log_dropped_total',
    help: 'Request log entries dropped: the buffer was full, a batch was refused, or the server was stopping',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const byOrg = new Map<string, number>();
  let untracked = 0;
  new Counter({
    name: 'plinth_request_log_dropped_by_org_total',
    help:
      `Request log entries dropped since the process started, for the ${DROPPED_TOP_ORGS} organisations with the ` +
      'most; org="other" sums the rest (it falls when an organisation joins the ten)',
    labelNames: ['org'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const top = [...byOrg].sort((a, b) => b[1] - a[1]);
      let other = untracked;
      for (const [i, [org, count]] of top.entries()) {
        if (i < DROPPED_TOP_ORGS) this.inc({ org }, count);
        else other += count;
      }
      this.inc({ org: 'other' }, other);
    },
  });
  new Gauge({
    name: 'plinth_request_log_buffered',
    help: 'Request log entries held in memory, waiting or being written',
    registers: [registry],
    collect() {
      this.set(held());
    },
  });
  return {
    written,
    drop(org: string, reason: DropReason, count = 1) {
      dropped.inc({ reason }, count);
      const before = byOrg.get(org);
      if (before !== undefined) byOrg.set(org, before + count);
      else if (byOrg.size < DROPPED_ORGS_KEPT) byOrg.set(org, count);
      else untracked += count;
    },
  };
}
