import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.ts';
import { principalOf } from '../keys/auth.ts';
import { Ref } from '../kit/schema.ts';
import { Event, EventIdParams, EventList, EventListQuery } from './events.schema.ts';
import { eventFromRow, findEventOrThrow, listEvents } from './events.service.ts';

type List<T> = { object: 'list'; data: T[]; has_more: boolean };

/** Events (CONTRACT §11): list (newest first, by sequence) and retrieve. Where each went: webhooks/deliveries.routes.ts. */
/**
 * Lists and retrievals answer with every event committed before the request arrived: on PostgreSQL they first wait
 * (at most 2 s) for a sequencer pass that began after it (`caughtUp`).
 */
export function eventsRoutes(app: FastifyInstance, deps: { db: Db; caughtUp: () => Promise<void> }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addSchema(Event);
  app.addSchema(EventList);

  r.get(
    '/v1/events',
    {
      schema: {
        operationId: 'listEvents',
        tags: ['Events'],
        summary: 'List events, newest first',
        description: 'Newest first by `sequence`; `type` keeps one type. Kept at least `EVENT_RETENTION_DAYS` (30).',
        querystring: EventListQuery,
        response: { 200: Ref<List<Event>>('EventList') },
      },
    },
    async (request) => {
      await deps.caughtUp();
      return listEvents(deps.db, principalOf(request), request.query);
    },
  );

  r.get(
    '/v1/events/:id',
    {
      schema: {
        operationId: 'retrieveEvent',
        tags: ['Events'],
        summary: 'Retrieve an event',
        params: EventIdParams,
        response: { 200: Ref<Event>('Event') },
      },
    },
    async (request) => {
      await deps.caughtUp();
      return eventFromRow(await findEventOrThrow(deps.db, principalOf(request), request.params.id));
    },
  );
}
