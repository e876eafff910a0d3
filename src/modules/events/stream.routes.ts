import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../../db/database.ts';
import { needs } from '../../platform/auth/permissions.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { declareStream, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';
import { EventStreamQuery } from './events.schema.ts';
import { openStream } from './stream.ts';
import type { StreamHub } from './stream-hub.ts';

const DESCRIPTION =
  'Server-Sent Events: every event of the key’s organisation and mode in `sequence` order, once numbered, as ' +
  '`id: <sequence>`, `event: <type>`, `data: <the event’s JSON, the bytes of GET /v1/events/{id}>`. ' +
  '`Last-Event-ID: <sequence>` (or `after`) resumes after that number with no gap and no repeat. A comment line ' +
  'every 15 s; `event: gap` (data `{"from","to"}`) when events after the resume point were purged. At most ' +
  '`EVENT_STREAMS_PER_ORG` (5) open per organisation and mode across all server processes, else 429 `rate_limited`; ' +
  'a resume point beyond the last numbered event: 400 `parameter_invalid`.';

/** One event as a client's SSE parser hands it over (the frame `id: 42`, `event: …`, `data: …`). */
const StreamEvent = Type.Object(
  {
    id: Type.String({ pattern: '^[0-9]+$', description: "The event's `sequence`: send it back as Last-Event-ID." }),
    event: Type.String({ description: "The event's `type`, or `gap` (numbers gone past retention)." }),
    data: Type.String({
      description: 'The event as `GET /v1/events/{id}` answers it (or, for `gap`, `{"from","to"}`), on one line.',
    }),
  },
  {
    examples: [
      {
        id: '42',
        event: 'fintech.account.created',
        data: '{"id":"evt_01M8…","object":"event","type":"fintech.account.created","sequence":42,…}',
      },
    ],
  },
);

/** The event stream's operation, declared at module scope (src/ops.ts). */
export const streamOps = {
  streamEvents: declareStream({
    method: 'GET',
    path: '/v1/events/stream',
    permission: needs('events', 'read'),
    schema: {
      operationId: 'streamEvents',
      tags: ['Events'],
      summary: 'Stream events as they happen (Server-Sent Events)',
      description: DESCRIPTION,
      querystring: EventStreamQuery,
      headers: Type.Object({
        'last-event-id': Type.Optional(
          Type.String({ pattern: '^[0-9]{1,15}$', description: 'The last `sequence` received: resume after it.' }),
        ),
      }),
      response: {
        200: {
          description: 'A stream of Server-Sent Events that stays open.',
          // The schema of one event of the stream, as SSE tools (Schemathesis among them) read an event stream.
          content: { 'text/event-stream': { schema: StreamEvent } },
        } as never,
      },
    },
  }),
};

/** `Last-Event-ID` (its shape checked by the schema: a whole number) wins over `?after=`; `param` names the one used. */
function resumePoint(request: FastifyRequest, after: number | undefined): { after: number | undefined; param: string } {
  const header = request.headers['last-event-id'];
  return typeof header === 'string' ? { after: Number(header), param: 'last-event-id' } : { after, param: 'after' };
}

/** After a revoked key's stream is ended, how long a client that reads has to take its end before it is cut. */
const HANG_UP_MS = 250;

/** The live event stream (docs/api.md#the-live-event-stream). */
export function eventStreamRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    hub: StreamHub;
    perOrg: number;
    maxSeconds: number;
    caughtUp: () => Promise<void>;
    settled: () => Promise<void> | undefined;
  },
): void {
  declareOperations(app, {}, [
    implement(streamOps.streamEvents, {
      open: async (owner, input, request, reply) => {
        const resume = { ...resumePoint(request, input.query.after), type: input.query.type };
        const hangUp = () => {
          const cut = setTimeout(() => reply.raw.destroy(), HANG_UP_MS).unref();
          reply.raw.on('close', () => clearTimeout(cut));
        };
        const opened = openStream(deps.db, owner, resume, deps.settled, hangUp);
        reply.raw.on('close', () => opened.body.destroy());
        if (!(await deps.hub.add(opened.watcher)))
          throw new ApiError(
            'rate_limited',
            `This organisation already has ${deps.perOrg} open ${owner.mode} event streams (EVENT_STREAMS_PER_ORG); ` +
              'close one, or retry later.',
            { headers: { 'retry-after': '1' } },
          );
        opened.body.on('close', () => deps.hub.remove(opened.watcher));
        // The client may have gone while the lease was taken.
        if (opened.body.destroyed) deps.hub.remove(opened.watcher);
        try {
          // As the list does: every event committed before the request is numbered, so "next" means after them.
          await deps.caughtUp();
          await opened.start();
        } catch (error) {
          opened.body.destroy();
          throw error;
        }
        if (deps.maxSeconds > 0) {
          const limit = setTimeout(() => opened.watcher.end('shutdown'), deps.maxSeconds * 1000).unref();
          opened.body.on('close', () => clearTimeout(limit));
        }
        reply.header('content-type', 'text/event-stream; charset=utf-8');
        reply.header('cache-control', 'no-cache');
        reply.header('x-accel-buffering', 'no');
        return reply.send(opened.body);
      },
    }),
  ]);
}
