import { type Static, Type } from 'typebox';
import { ListPage } from '../../../platform/http/pagination.ts';
import { type IdKind, idPattern } from '../../../platform/kit/ids.ts';
import { IdOf, StringEnum } from '../../../platform/kit/schema.ts';
import { freeTextPattern } from '../../../platform/kit/text.ts';
import { API_TIME_PATTERN } from '../../../platform/kit/time.ts';
import { EventTypeOrAllSchema } from '../../../platform/outbox/types.ts';
import { Metadata, MetadataInput, MetadataUpdate } from '../../metadata/index.ts';

/** The kind of id this resource has: its prefix, and the noun its messages use. */
export const WEBHOOK_ENDPOINT: IdKind = { noun: 'webhook endpoint', prefix: 'we' };

export const ENDPOINT_ID_PATTERN = idPattern('we');
export const SECRET_PATTERN = '^whsec_[A-Za-z0-9+/]{43}=$';

const EnabledEvents = Type.Array(EventTypeOrAllSchema, {
  minItems: 1,
  maxItems: 32,
  uniqueItems: true,
  description: 'The event types to send, or `["*"]` for all (types added later included).',
  examples: [['*'], ['fintech.account.created', 'api_key.revoked']],
});
const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  // No NUL: a body with one anywhere is refused whole (400 `body_malformed`, docs/api.md#the-wire). What else a URL may
  // hold is a URL parser's business, which no regular expression follows; the description says it.
  pattern: '^[^\\u0000]*$',
  description:
    'Where to POST events: an absolute `http` or `https` URL without credentials (live endpoints must use ' +
    '`https`), on a host that is and resolves to a public address, else 400 `parameter_invalid`.',
  examples: ['https://hooks.example.com/plinth'],
});
/** The longest endpoint description, in characters after trimming. */
export const DESCRIPTION_MAX = 500;

const Description = Type.Unsafe<string | null>({
  type: ['string', 'null'],
  pattern: freeTextPattern(DESCRIPTION_MAX),
  description:
    'A note for people: 1–500 characters after trimming, without control, invisible or direction-changing ' +
    'characters (Unicode Cc, Cf, Zl, Zp); `null` for none.',
});

const endpointProperties = {
  id: Type.String({ pattern: ENDPOINT_ID_PATTERN }),
  object: Type.Literal('webhook_endpoint'),
  url: Type.String(),
  enabled_events: Type.Array(Type.String()),
  description: Type.Unsafe<string | null>({
    type: ['string', 'null'],
    description: 'A note for people, as given (trimmed); `null` for none.',
  }),
  status: StringEnum(['enabled', 'disabled'], { description: 'Open: accept values you do not know.' }),
  disabled_reason: Type.Unsafe<'manual' | 'gone' | 'failing' | null>({
    type: ['string', 'null'],
    enum: ['manual', 'gone', 'failing', null],
    description:
      '`manual` (disabled through the API), `gone` (it answered 410), `failing` (every attempt failed for 5 days).',
  }),
  metadata: Metadata,
  livemode: Type.Boolean(),
  created_at: Type.String({ pattern: API_TIME_PATTERN }),
};
const example = {
  id: 'we_01KAPQ9R3W4X5Y6Z7A8B9C0D1E',
  object: 'webhook_endpoint',
  url: 'https://hooks.example.com/plinth',
  enabled_events: ['*'],
  description: 'Production receiver',
  status: 'enabled',
  disabled_reason: null,
  metadata: {},
  livemode: false,
  created_at: '2026-11-22T11:30Z',
};

export const WebhookEndpoint = Type.Object(endpointProperties, {
  $id: 'WebhookEndpoint',
  additionalProperties: false,
  description: 'Where events are sent, signed (Standard Webhooks). Never shows its secret.',
  examples: [example],
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...endpointProperties,
    secret: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      pattern: SECRET_PATTERN,
      description:
        'The signing secret, `whsec_` + base64 of 32 random bytes; shown only in the answers of create and ' +
        'rotate_secret. `null` on an idempotent replay (`Idempotent-Replayed: true`): it is never stored in the clear.',
    }),
  },
  {
    $id: 'WebhookEndpointWithSecret',
    additionalProperties: false,
    description: 'A webhook endpoint with its signing secret, shown this once.',
    examples: [{ ...example, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9wL1aFkAjH8=' }],
  },
);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointList = ListPage<WebhookEndpoint>(
  'WebhookEndpointList',
  'WebhookEndpoint',
  'endpoints',
  [example],
  false,
);
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

export const DeletedWebhookEndpoint = Type.Object(
  {
    id: Type.String({ pattern: ENDPOINT_ID_PATTERN }),
    object: Type.Literal('webhook_endpoint'),
    deleted: Type.Literal(true),
  },
  {
    $id: 'DeletedWebhookEndpoint',
    additionalProperties: false,
    description: 'The endpoint is gone, with its deliveries.',
    examples: [{ id: example.id, object: 'webhook_endpoint', deleted: true }],
  },
);

export const EndpointCreateBody = Type.Object(
  {
    url: Url,
    enabled_events: EnabledEvents,
    description: Type.Optional(Description),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://hooks.example.com/plinth', enabled_events: ['*'], description: 'Production receiver' }],
  },
);
export type EndpointCreateBody = Static<typeof EndpointCreateBody>;

export const EndpointUpdateBody = Type.Object(
  {
    url: Type.Optional(Url),
    enabled_events: Type.Optional(EnabledEvents),
    description: Type.Optional(Description),
    metadata: Type.Optional(MetadataUpdate),
    status: Type.Optional(
      StringEnum(['enabled', 'disabled'], {
        description: '`disabled` stops deliveries (`disabled_reason: manual`); `enabled` resumes them.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ status: 'enabled' }, { enabled_events: ['fintech.account.created'] }] },
);
export type EndpointUpdateBody = Static<typeof EndpointUpdateBody>;

export const RotateBody = Type.Object(
  {
    expire_previous_in_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 604_800,
        default: 86_400,
        description: 'How long the previous secret keeps signing beside the new one (0–604800 s; default a day).',
      }),
    ),
  },
  { additionalProperties: false, examples: [{}, { expire_previous_in_seconds: 3600 }] },
);

export const EndpointIdParams = Type.Object(
  { id: IdOf('we', { description: 'A webhook endpoint id, `we_…`.' }) },
  { additionalProperties: false },
);
