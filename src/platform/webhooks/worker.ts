import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { Mode } from '../auth/principal.ts';
import { type Clock, storedTime } from '../kit/time.ts';
import { type AttemptOptions, attempt } from './attempt.ts';
import { claimer, track } from './claim.ts';
import type { Claimed } from './claims.repository.ts';
import { anyDue, countPending, pendingByOrg } from './deliveries.repository.ts';
import { type Outcome, recordAttempt } from './record.ts';
import { webhookHeaders } from './sign.ts';
import type { SigningSecrets } from './signing-secrets.ts';

/** What /metrics registers (platform/metrics/webhooks.ts): attempts by outcome with their latency, and the backlog. */
export interface WebhookMetrics {
  /** Called after every attempt is recorded. `latencySeconds`: from the event's creation to this success. */
  onAttempt(listener: (attempt: { outcome: Outcome; durationSeconds: number; latencySeconds?: number }) => void): void;
  /** Deliveries pending (due or waiting for a retry). */
  backlog(): Promise<number>;
  /** The same by organisation and mode, largest first. */
  backlogByOrg(): Promise<{ orgId: string; mode: Mode; pending: number }[]>;
  /** This process's attempts in flight, by mode. */
  inFlight(): Record<Mode, number>;
}

/** One attempt as /metrics counts it. */
export interface AttemptReport {
  outcome: Outcome;
  durationSeconds: number;
  /** From the event's creation to this success. */
  latencySeconds?: number;
}

export interface DeliveryWorkers {
  start(): void;
  /** Stops claiming, then waits up to `graceMs` for attempts in flight to finish and be recorded. */
  stop(graceMs: number): Promise<void>;
  /** Something may be due now (a commit, a manual retry): look without waiting for the next poll. */
  poke(): void;
  /** Pokes also go to `to`: the delivery processes, when this process does not deliver itself (server.ts). */
  relay(to: () => void): void;
  /** An attempt a delivery process made, counted on this process's /metrics as if made here. */
  heard(report: AttemptReport): void;
  metrics: WebhookMetrics;
}

export interface WorkerDeps {
  database: Database;
  clock: Clock;
  box: SigningSecrets;
  log: FastifyBaseLogger;
  schedule: number[];
  concurrency: number;
  /**
   * Other processes claim from the same database (several delivery processes, or PostgreSQL): each claim decides
   * again inside its write, so that fair.ts's bounds count every process's attempts.
   */
  shared?: boolean;
  attempt: Omit<AttemptOptions, 'allowPrivate'> & { allowPrivateSandbox: boolean };
}

const POLL_MS = 500;

/** The secrets that sign now: the current one, and the previous one until its overlap ends. */
function signingSecrets(deps: WorkerDeps, claimed: Claimed, now: Date): string[] {
  const secrets = [deps.box.open(claimed.secret)];
  if (
    claimed.previousSecret !== null &&
    claimed.previousExpiresAt !== null &&
    Date.parse(claimed.previousExpiresAt) > now.getTime()
  )
    secrets.push(deps.box.open(claimed.previousSecret));
  return secrets;
}

/**
 * Delivery workers: poll for due deliveries (a read, so idling costs no write), claim what the fair policy allows
 * (claim.ts, fair.ts: per mode, per organisation, per endpoint) with a lease in one write, attempt each outside any
 * write, and record each result in a write of its own. A lease lasts twice the attempt timeout plus 5 s: a worker
 * that dies mid-attempt gives its rows back when it ends.
 */
export function deliveryWorkers(deps: WorkerDeps): DeliveryWorkers {
  const listeners: Parameters<WebhookMetrics['onAttempt']>[0][] = [];
  /** Attempts in flight, with when each started. */
  const inFlight = new Map<Promise<void>, number>();
  let running = false;
  let looking = false;
  let timer: NodeJS.Timeout | undefined;
  const leaseMs = 2 * deps.attempt.timeoutMs + 5000;
  const claims = claimer(deps.database, deps.concurrency, deps.shared ?? false);
  let relayed: (() => void) | undefined;

  async function run(claimed: Claimed): Promise<void> {
    const now = deps.clock();
    const headers = webhookHeaders(signingSecrets(deps, claimed, now), claimed.delivery.event_id, claimed.body, now);
    const allowPrivate = deps.attempt.allowPrivateSandbox && claimed.delivery.mode === 'sandbox';
    const result = await attempt(claimed.url, headers, claimed.body, { ...deps.attempt, allowPrivate });
    const at = deps.clock();
    const outcome = await deps.database.write((trx) =>
      recordAttempt(trx, claimed.delivery, claimed.delivery.claim!, result, at, deps.schedule),
    );
    const latencySeconds =
      outcome === 'succeeded' ? (at.getTime() - Date.parse(claimed.eventCreatedAt)) / 1000 : undefined;
    const report = { outcome, durationSeconds: result.durationMs / 1000, latencySeconds };
    for (const listener of listeners) listener(report);
  }

  async function look(): Promise<void> {
    const take = () => (running ? deps.concurrency - inFlight.size : 0);
    const now = deps.clock();
    if (take() <= 0 || !(await anyDue(deps.database.db, storedTime(now)))) return;
    const { claimed, more } = await claims.claim(now, take, new Date(now.getTime() + leaseMs));
    for (const one of claimed) {
      const untrack = track(claims.load, one);
      const task = run(one)
        .catch((error: unknown) => deps.log.warn({ err: error, delivery: one.delivery.id }, 'webhook attempt failed'))
        .finally(() => {
          untrack();
          inFlight.delete(task);
          nudge();
        });
      inFlight.set(task, performance.now());
    }
    if (more) nudge(); // there may be more
  }

  // One look at a time; a poke during a look asks for another right after it, so no nudge is lost.
  let again = false;
  function nudge(): void {
    if (!running) return;
    if (looking) {
      again = true;
      return;
    }
    looking = true;
    again = false;
    setImmediate(() => {
      look()
        .catch((error: unknown) => deps.log.warn({ err: error }, 'webhook claim failed; will retry'))
        .finally(() => {
          looking = false;
          if (again) nudge();
        });
    });
  }

  return {
    start() {
      running = true;
      timer = setInterval(nudge, POLL_MS);
      timer.unref();
      nudge();
    },
    async stop(graceMs) {
      running = false;
      clearInterval(timer);
      const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.allSettled([...inFlight.keys()]), grace]);
    },
    poke() {
      relayed?.();
      nudge();
    },
    relay(to) {
      relayed = to;
    },
    heard(report) {
      for (const listener of listeners) listener(report);
    },
    metrics: {
      onAttempt: (listener) => listeners.push(listener),
      backlog: () => countPending(deps.database.db),
      backlogByOrg: () => pendingByOrg(deps.database.db),
      inFlight: () => ({ ...claims.load.byMode }),
    },
  };
}
