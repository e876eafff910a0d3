import { Type } from 'typebox';
import { integer } from '../../platform/kit/settings.ts';
import { defineModule } from '../../platform/module.ts';
import type { BeforeEventsDeleted } from './events.repository.ts';

export { eventOps } from './events.routes.ts';
export { streamOps } from './stream.routes.ts';

import { installEvents } from './install.ts';
import { EVENTS_MIGRATIONS } from './migrations/index.ts';

export const EventsSettings = Type.Object({
  EVENT_RETENTION_DAYS: integer(30, 1, 3650, 'days events (and their delivery logs) are kept before being purged'),
  EVENT_STREAMS_PER_ORG: integer(
    5,
    1,
    1000,
    'open event streams (`GET /v1/events/stream`) an org may hold per mode, across every server process',
  ),
  EVENT_STREAM_MAX_SECONDS: integer(
    0,
    0,
    86_400,
    'seconds after which the server ends an event stream cleanly (the client resumes by Last-Event-ID); 0: never',
  ),
});

/**
 * Events: the list, one event, the live stream and the retention purge (docs/api.md#events). The outbox every module
 * records its events in (emit.ts, the sequencer) is built by the composition root and handed to every module as
 * `Host.events`; `beforePurge` is what must go before an event does (the webhooks' deliveries of it).
 */
export const eventsModule = (beforePurge: BeforeEventsDeleted) =>
  defineModule({
    name: 'events',
    migrations: EVENTS_MIGRATIONS,
    tags: [
      {
        name: 'Events',
        description:
          'What happened, in order: each event carries a `sequence`, +1 per event of the organisation and mode, ' +
          'with no gaps, in commit order.',
      },
    ],
    settings: EventsSettings,
    install(app, { database, clock, sequencer, settings }) {
      installEvents(app, {
        database,
        clock,
        retentionDays: settings.EVENT_RETENTION_DAYS,
        beforePurge,
        sequencer,
        streams: { perOrg: settings.EVENT_STREAMS_PER_ORG, maxSeconds: settings.EVENT_STREAM_MAX_SECONDS },
      });
    },
  });

// The public face other modules read (the webhooks' deliveries of an event, the dashboard's pages).
export { EVENT_ID_PATTERN, type Event, EventIdParams, EventListQuery } from './events.schema.ts';
export { eventFromRow, findEventOrThrow, listEvents } from './events.service.ts';
