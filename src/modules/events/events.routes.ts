import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.ts';
import { needs } from '../../platform/auth/permissions.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { Event, EventIdParams, EventList, EventListQuery } from './events.schema.ts';
import { eventFromRow, findEventOrThrow, listEvents } from './events.service.ts';

type List<T> = { object: 'list'; data: T[]; has_more: boolean };

/**
 * Events (docs/api.md#events): list (newest first, by sequence) and retrieve. Where each went:
 * webhooks/deliveries.routes.ts.
 */
/** Events' operations, declared at module scope: what the dashboard and the CLI name through `ops` (src/ops.ts). */
export const eventOps = {
  listEvents: declareRead({
    asStored: true,
    method: 'GET',
    path: '/v1/events',
    permission: needs('events', 'read'),
    schema: {
      operationId: 'listEvents',
      'x-plinth-sdk': { resource: 'events', method: 'list' },
      tags: ['Events'],
      summary: 'List events, newest first',
      description: 'Newest first by `sequence`; `type` keeps one type. Kept at least `EVENT_RETENTION_DAYS` (30).',
      querystring: EventListQuery,
      response: { 200: Ref<List<Event>>('EventList') },
    },
  }),
  retrieveEvent: declareRead({
    asStored: true,
    method: 'GET',
    path: '/v1/events/:id',
    permission: needs('events', 'read'),
    schema: {
      operationId: 'retrieveEvent',
      'x-plinth-sdk': { resource: 'events', method: 'retrieve' },
      tags: ['Events'],
      summary: 'Retrieve an event',
      params: EventIdParams,
      response: { 200: Ref<Event>('Event') },
    },
  }),
};

/**
 * Lists and retrievals answer with every event committed before the request arrived: on PostgreSQL they first wait
 * (at most 2 s) for a sequencer pass that began after it (`caughtUp`).
 */
export function eventsRoutes(app: FastifyInstance, deps: { db: Db; caughtUp: () => Promise<void> }): void {
  app.addSchema(Event);
  app.addSchema(EventList);
  declareOperations(app, {}, [
    implement(eventOps.listEvents, {
      read: async (owner, input) => {
        await deps.caughtUp();
        return listEvents(deps.db, owner, input.query);
      },
    }),

    implement(eventOps.retrieveEvent, {
      read: async (owner, input) => {
        await deps.caughtUp();
        return eventFromRow(await findEventOrThrow(deps.db, owner, input.params.id));
      },
    }),
  ]);
}
