import type { FastifyInstance } from 'fastify';
import { Histogram, type Registry } from 'prom-client';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../platform/kit/time.ts';
import { type AfterNumbered, type EventRecorder, eventRecorder } from '../../platform/outbox/emit.ts';
import { idleSequencer, type Sequencer, startSequencer } from '../../platform/outbox/sequencer.ts';
import type { BeforeEventsDeleted } from './events.repository.ts';
import { eventsRoutes } from './events.routes.ts';
import { startEventPurge } from './purge.ts';
import { eventStreamRoutes } from './stream.routes.ts';
import { streamHub } from './stream-hub.ts';
import { streamLeases } from './stream-leases.ts';

/** The OpenAPI tag of the events' operations. */

const PURGE_INTERVAL_MS = 3_600_000;
/** How often open streams look for events numbered by another process and for revoked keys (at most 1 s late). */
const STREAM_POLL_MS = 250;

/**
 * How events are recorded and numbered: the recorder every writer is handed and, on PostgreSQL, this process's
 * sequencer (woken by every commit that recorded events, stopped with the app), its lag on /metrics.
 */
export function startEvents(
  app: FastifyInstance,
  deps: { database: Database; clock: Clock; registry: Registry; afterNumbered: AfterNumbered },
): { events: EventRecorder; sequencer: Sequencer } {
  const lag = new Histogram({
    name: 'plinth_event_numbering_lag_seconds',
    help: "From an event's creation (in its write) to its number (PostgreSQL's sequencer; SQLite numbers inline)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [deps.registry],
  });
  const { database, afterNumbered } = deps;
  const sequencer = !database.singleWriter
    ? startSequencer({ database, afterNumbered, log: app.log, observeLag: (seconds) => lag.observe(seconds) })
    : idleSequencer;
  app.addHook('onClose', () => sequencer.stop());
  return { events: eventRecorder({ afterNumbered, onRecorded: sequencer.poke }), sequencer };
}

/**
 * Events (docs/api.md#events): their routes, the live stream and the retention purge. Recording them is `EventRecorder` (emit.ts),
 * handed to every service that writes; `beforePurge` removes what refers to events (their webhook deliveries) before
 * they go.
 */
export function installEvents(
  app: FastifyInstance,
  deps: {
    database: Database;
    clock: Clock;
    retentionDays: number;
    beforePurge: BeforeEventsDeleted;
    sequencer: Sequencer;
    /** EVENT_STREAMS_PER_ORG and EVENT_STREAM_MAX_SECONDS. */
    streams: { perOrg: number; maxSeconds: number };
  },
): void {
  const { database, clock } = deps;
  const retentionMs = deps.retentionDays * 86_400_000;
  const stopPurge = startEventPurge(database, clock, retentionMs, PURGE_INTERVAL_MS, app.log, deps.beforePurge);
  app.addHook('onClose', async () => stopPurge());
  eventsRoutes(app, { db: database.db, caughtUp: deps.sequencer.caughtUp });
  // The live stream: woken by this process's commits and a short poll, ended cleanly when shutdown begins.
  const hub = streamHub(database.db, streamLeases(database), { perOrg: deps.streams.perOrg, pollMs: STREAM_POLL_MS });
  database.onCommit(() => hub.poke());
  app.addHook('preClose', async () => hub.closeAll());
  eventStreamRoutes(app, {
    db: database.db,
    hub,
    ...deps.streams,
    caughtUp: deps.sequencer.caughtUp,
    settled: () => database.readsSettled(),
  });
}
