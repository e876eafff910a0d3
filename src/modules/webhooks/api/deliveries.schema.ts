import { type Static, Type } from 'typebox';
import { ListPage, ListQuery } from '../../../platform/http/pagination.ts';
import { type IdKind, idPattern } from '../../../platform/kit/ids.ts';
import { IdOf, StringEnum } from '../../../platform/kit/schema.ts';
import { API_TIME_PATTERN } from '../../../platform/kit/time.ts';
import { EVENT_ID_PATTERN } from '../../events/index.ts';
import { ENDPOINT_ID_PATTERN } from './endpoints.schema.ts';

/** The kind of id this resource has: its prefix, and the noun its messages use. */
export const WEBHOOK_DELIVERY: IdKind = { noun: 'webhook delivery', prefix: 'whd' };

const Time = Type.String({ pattern: API_TIME_PATTERN });
const DeliveryStatus = StringEnum(['pending', 'succeeded', 'failed'], {
  description: '`pending` until an attempt succeeds (`succeeded`) or the retries are spent (`failed`). Open enum.',
});

const EXAMPLE_DELIVERY = {
  id: 'whd_01KAPQ9R3W4X5Y6Z7A8B9C0D1F',
  object: 'webhook_delivery',
  endpoint_id: 'we_01KAPQ9R3W4X5Y6Z7A8B9C0D1E',
  event_id: 'evt_01KAPQ9R3W4X5Y6Z7A8B9C0D1E',
  status: 'succeeded',
  attempts: [
    { attempted_at: '2026-11-22T11:30Z', response_status: 500, duration_ms: 41, error: null },
    { attempted_at: '2026-11-22T11:30Z', response_status: 200, duration_ms: 12, error: null },
  ],
  next_attempt_at: null,
  created_at: '2026-11-22T11:30Z',
};

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ pattern: idPattern('whd') }),
    object: Type.Literal('webhook_delivery'),
    endpoint_id: Type.String({ pattern: ENDPOINT_ID_PATTERN }),
    event_id: Type.String({ pattern: EVENT_ID_PATTERN }),
    status: DeliveryStatus,
    attempts: Type.Array(
      Type.Object(
        {
          attempted_at: Time,
          response_status: Type.Unsafe<number | null>({
            type: ['integer', 'null'],
            description: 'The HTTP status the endpoint answered; `null` when none came (refused, timeout, network).',
          }),
          duration_ms: Type.Integer({ minimum: 0 }),
          error: Type.Unsafe<string | null>({
            type: ['string', 'null'],
            description: 'Why no answer came, for people; `null` when one did.',
          }),
        },
        { additionalProperties: false },
      ),
      { description: 'Every attempt so far, oldest first.' },
    ),
    next_attempt_at: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      pattern: API_TIME_PATTERN,
      description: 'When the next attempt is due; `null` once the delivery has settled.',
    }),
    created_at: Time,
  },
  {
    $id: 'WebhookDelivery',
    additionalProperties: false,
    description: 'One event sent to one endpoint, with the log of its attempts.',
    examples: [EXAMPLE_DELIVERY],
  },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>;
export const WebhookDeliveryList = ListPage<WebhookDelivery>(
  'WebhookDeliveryList',
  'WebhookDelivery',
  'deliveries',
  [EXAMPLE_DELIVERY],
  false,
);

export const EndpointDeliveriesQuery = Type.Object(
  { ...ListQuery('deliverie', 'whd').properties, status: Type.Optional(DeliveryStatus) },
  { additionalProperties: false },
);
export type EndpointDeliveriesQuery = Static<typeof EndpointDeliveriesQuery>;
export const EventDeliveriesQuery = ListQuery('deliverie', 'whd');

export const DeliveryIdParams = Type.Object(
  { id: IdOf('whd', { description: 'A webhook delivery id, `whd_…`.' }) },
  { additionalProperties: false },
);
