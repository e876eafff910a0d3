import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/database.ts';
import type { Mode } from '../../../platform/auth/principal.ts';
import { type Clock, storedTime } from '../../../platform/kit/time.ts';
import { anyDue, countPending, pendingByOrg } from '../api/deliveries.repository.ts';
import { type AttemptOptions, type AttemptResult, attempt } from './attempt.ts';
import { type Load, track } from './claim.ts';
import type { Claimed } from './claims.repository.ts';
import type { Outcome } from './record.ts';
import { databaseRounds, loadSnapshot, type RoundAnswer } from './rounds.ts';
import { webhookHeaders } from './sign.ts';
import type { SigningSecrets } from './signing-secrets.ts';

/** What /metrics registers (modules/webhooks/engine/metrics.ts): attempts by outcome with their latency, and the backlog. */
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
/** How long a finished attempt's result may wait for the others on the wire before a look records it. */
const COALESCE_MS = 2;

/** An attempt made, its result not yet recorded. */
interface Done {
  claimed: Claimed;
  result: AttemptResult;
  at: Date;
  untrack: () => void;
  recorded: () => void;
}

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
 * write, and record the results in the next claim's write (one write a round, however many finished). A lease lasts twice the attempt timeout plus 5 s: a worker
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
  const shared = deps.shared ?? false;
  const rounds = databaseRounds(deps.database, deps.concurrency, shared, deps.schedule);
  const load: Load = { byMode: { live: 0, sandbox: 0 }, orgs: new Map(), endpoints: new Map() };
  let relayed: (() => void) | undefined;

  /** Attempts made, waiting for their results to be recorded by the next look's write. */
  const done: Done[] = [];
  /** Results the look under way is recording (still in `inFlight` until it has). */
  let recording = 0;

  async function run(claimed: Claimed, untrack: () => void): Promise<void> {
    const now = deps.clock();
    const headers = webhookHeaders(signingSecrets(deps, claimed, now), claimed.delivery.event_id, claimed.body, now);
    const allowPrivate = deps.attempt.allowPrivateSandbox && claimed.delivery.mode === 'sandbox';
    const result = await attempt(claimed.url, headers, claimed.body, { ...deps.attempt, allowPrivate });
    await new Promise<void>((recorded) => {
      done.push({ claimed, result, at: deps.clock(), untrack, recorded });
      finished();
    });
  }

  // An attempt ended: its result waits for the next look's write. The attempts a claim started end together, one
  // after the other: a look at the first would record it alone and leave the rest to another write (rounds of one
  // or two instead of all of them, bench/FINDINGS.md). So the look waits until every attempt on the wire has ended,
  // or COALESCE_MS after the first result, whichever comes first.
  let coalescing: NodeJS.Timeout | undefined;
  function finished(): void {
    if (done.length + recording >= inFlight.size) {
      clearTimeout(coalescing);
      coalescing = undefined;
      nudge();
    } else if (coalescing === undefined) {
      coalescing = setTimeout(() => {
        coalescing = undefined;
        nudge();
      }, COALESCE_MS);
      coalescing.unref();
    }
  }

  function report(batch: Done[], outcomes: Outcome[]): void {
    for (const [i, outcome] of outcomes.entries()) {
      const { claimed, result, at } = batch[i]!;
      const latencySeconds =
        outcome === 'succeeded' ? (at.getTime() - Date.parse(claimed.eventCreatedAt)) / 1000 : undefined;
      const report = { outcome, durationSeconds: result.durationMs / 1000, latencySeconds };
      for (const listener of listeners) listener(report);
    }
  }

  // One write per look: the results of the attempts that finished since the last one, then the claim of as many due
  // deliveries as the slots (those results freed included) allow. Idle, a look is one read and no write.
  async function look(): Promise<void> {
    const batch = done.splice(0);
    recording = batch.length;
    for (const one of batch) one.untrack(); // what the claim decides from: these no longer hold a slot
    const take = running ? deps.concurrency - inFlight.size + batch.length : 0;
    const now = deps.clock();
    if (batch.length === 0 && (take <= 0 || !(await anyDue(deps.database.db, storedTime(now))))) return;
    let answer: RoundAnswer;
    try {
      answer = await rounds({
        now: now.toISOString(),
        leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
        take,
        load: loadSnapshot(load),
        finished: batch.map(({ claimed, result, at }) => ({
          delivery: claimed.delivery,
          result,
          at: at.toISOString(),
        })),
      });
    } finally {
      // Recorded, or not (the write failed: the lease ends and the delivery is claimed again): no longer in flight.
      recording = 0;
      for (const one of batch) one.recorded();
    }
    report(batch, answer.outcomes);
    for (const one of answer.claimed) {
      const task = run(one, track(load, one))
        .catch((error: unknown) => deps.log.warn({ err: error, delivery: one.delivery.id }, 'webhook attempt failed'))
        .finally(() => inFlight.delete(task));
      inFlight.set(task, performance.now());
    }
    if (answer.more) nudge(); // there may be more
  }

  // One look at a time; a poke during a look asks for another right after it, so no nudge is lost.
  let again = false;
  function nudge(): void {
    if (!running && done.length === 0) return;
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
      inFlight: () => ({ ...load.byMode }),
    },
  };
}
