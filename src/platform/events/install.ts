import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../kit/time.ts';
import type { BeforeEventsDeleted } from './events.repository.ts';
import { eventsRoutes } from './events.routes.ts';
import { startEventPurge } from './purge.ts';

/** The OpenAPI tag of the events' operations. */
export const EVENT_TAGS = [
  {
    name: 'Events',
    description:
      'What happened, in order: each event carries a `sequence`, +1 per event of the organisation and mode, ' +
      'with no gaps, in commit order.',
  },
];

const PURGE_INTERVAL_MS = 3_600_000;

/**
 * Events (CONTRACT §11): their routes and the retention purge. Recording them is `EventRecorder` (emit.ts), handed to
 * every service that writes; `beforePurge` removes what refers to events (their webhook deliveries) before they go.
 */
export function installEvents(
  app: FastifyInstance,
  deps: { database: Database; clock: Clock; retentionDays: number; beforePurge: BeforeEventsDeleted },
): void {
  const { database, clock } = deps;
  const retentionMs = deps.retentionDays * 86_400_000;
  const stopPurge = startEventPurge(database, clock, retentionMs, PURGE_INTERVAL_MS, app.log, deps.beforePurge);
  app.addHook('onClose', async () => stopPurge());
  eventsRoutes(app, { db: database.db });
}
