import { type Static, Type } from 'typebox';
import { CreatedFilter } from '../../platform/http/created-filter.ts';
import { ListPage, ListQuery } from '../../platform/http/pagination.ts';
import { type IdKind, idPattern } from '../../platform/kit/ids.ts';
import { IdOf } from '../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../platform/kit/time.ts';
import { EventTypeSchema } from '../../platform/outbox/types.ts';

/** The kind of id this resource has: its prefix, and the noun its messages use. */
export const EVENT: IdKind = { noun: 'event', prefix: 'evt' };

export const EVENT_ID_PATTERN = idPattern('evt');

const EXAMPLE_EVENT = {
  id: 'evt_01KAPQ9R3W4X5Y6Z7A8B9C0D1E',
  object: 'event',
  type: 'fintech.account.created',
  sequence: 42,
  chain: { prev: '5d1c2f0a8e9b7c6d4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f' },
  data: {
    object: {
      id: 'acct_01KAPQ9R3V2W3X4Y5Z6A7B8C9D',
      object: 'fintech.account',
      type: 'business',
      country: 'US',
      status: 'active',
      available_balance: { amount: 0, currency: 'USD' },
      kyb: null,
      livemode: false,
      created_at: '2026-11-22T11:30Z',
    },
  },
  request: { id: 'req_01KAPQ9R3T1V2W3X4Y5Z6A7B8C', idempotency_key: 'b1946ac9-2c2b-4f5e-9d0e-1a2b3c4d5e6f' },
  livemode: false,
  created_at: '2026-11-22T11:30Z',
};

export const Event = Type.Object(
  {
    id: Type.String({
      pattern: EVENT_ID_PATTERN,
      description: 'The event id; also the `webhook-id` of its deliveries.',
    }),
    object: Type.Literal('event'),
    type: EventTypeSchema,
    sequence: Type.Integer({
      format: 'int64',
      minimum: 1,
      description: 'Per organisation and mode, +1 per event with no gaps, in commit order: order by it, detect gaps.',
    }),
    chain: Type.Optional(
      Type.Object(
        {
          prev: Type.String({
            pattern: '^[0-9a-f]{64}$',
            description:
              "The SHA-256 (hex) of the previous event's body of the organisation and mode, byte for byte as served; " +
              'for the first event, of `plinth.chain.v1 <org id> <mode>`. See "Verifying the history".',
          }),
        },
        {
          additionalProperties: false,
          description:
            'Links the event to the history before it. Absent only on events numbered before the chain existed.',
        },
      ),
    ),
    data: Type.Object(
      {
        object: Type.Object(
          {},
          { additionalProperties: true, description: 'The resource after the change, as its own API returns it.' },
        ),
      },
      { additionalProperties: false },
    ),
    request: Type.Unsafe<{ id: string; idempotency_key: string | null } | null>({
      type: ['object', 'null'],
      properties: {
        id: { type: 'string', pattern: idPattern('req') },
        idempotency_key: { type: ['string', 'null'] },
      },
      required: ['id', 'idempotency_key'],
      additionalProperties: false,
      description: 'The API request that caused it; `null` for the operator CLI and background work.',
    }),
    livemode: Type.Boolean(),
    created_at: Type.String({ pattern: API_TIME_PATTERN }),
  },
  {
    $id: 'Event',
    additionalProperties: false,
    description: 'Something that happened to a resource of the organisation.',
    examples: [EXAMPLE_EVENT],
  },
);
export type Event = Static<typeof Event>;

export const EventList = ListPage<Event>('EventList', 'Event', 'events', [EXAMPLE_EVENT], true);

export const EventListQuery = Type.Object(
  {
    ...ListQuery('event', 'evt').properties,
    type: Type.Optional(EventTypeSchema),
    created: Type.Optional(CreatedFilter),
  },
  { additionalProperties: false },
);
export type EventListQuery = Static<typeof EventListQuery>;

export const EventIdParams = Type.Object(
  { id: IdOf('evt', { description: 'An event id, `evt_…`.' }) },
  { additionalProperties: false },
);

export const EventStreamQuery = Type.Object(
  {
    after: Type.Optional(
      Type.Integer({
        format: 'int64',
        minimum: 0,
        // An integer in a query string is at most 15 digits (docs/api.md#the-wire), as Last-Event-ID is.
        maximum: 999_999_999_999_999,
        description:
          'Resume after this `sequence` (`Last-Event-ID`, when sent, wins). Without either: from the next event.',
      }),
    ),
    type: Type.Optional(EventTypeSchema),
  },
  { additionalProperties: false },
);
export type EventStreamQuery = Static<typeof EventStreamQuery>;
