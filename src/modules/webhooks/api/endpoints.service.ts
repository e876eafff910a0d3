import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/database.ts';
import { findOwned, pageOwned } from '../../../db/owned.ts';
import type { Mode, Principal } from '../../../platform/auth/principal.ts';
import { ApiError, notFound } from '../../../platform/http/errors.ts';
import { type ListParams, listPage } from '../../../platform/http/pagination.ts';
import { isIdOf, newId } from '../../../platform/kit/ids.ts';
import { cleanText, cleanTextRule } from '../../../platform/kit/text.ts';
import { type Clock, storedTime } from '../../../platform/kit/time.ts';
import type { WriteContext } from '../../../platform/operations/context.ts';
import type { EventRecorder } from '../../../platform/outbox/emit.ts';
import { checkTarget, type Resolver, TargetRefused } from '../../../platform/ssrf.ts';
import type { Event } from '../../events/index.ts';
import { eventFromRow } from '../../events/index.ts';
import { mergeMetadata, metadataOnCreate, parseMetadata } from '../../metadata/index.ts';
import type { SigningSecrets } from '../engine/signing-secrets.ts';
import type { WebhookEndpointsTable } from '../tables.ts';
import * as repo from './endpoints.repository.ts';
import {
  DESCRIPTION_MAX,
  type EndpointCreateBody,
  type EndpointUpdateBody,
  WEBHOOK_ENDPOINT,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from './endpoints.schema.ts';
import { endpointFromRow, endpointWithSecret } from './endpoints.view.ts';

export const ENDPOINTS_PER_ORG = 16;

export interface EndpointsDeps {
  db: Db;
  clock: Clock;
  box: SigningSecrets;
  events: EventRecorder;
  resolve: Resolver;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: honoured for sandbox endpoints only. */
  allowPrivate: boolean;
}

const invalid = (param: string, detail: string) => new ApiError('parameter_invalid', detail, { param });

/**
 * The URL rules of docs/api.md#how-delivery-works (Targets), checked before the write (resolving a name is network
 * work, which must never hold the write pipeline): http(s) without credentials, https for live, and no private target.
 */
export async function checkUrl(deps: EndpointsDeps, mode: Mode, raw: string | undefined): Promise<void> {
  if (raw === undefined) return;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || !['http:', 'https:'].includes(url.protocol))
    throw invalid('url', 'url must be an absolute http or https URL.');
  if (mode === 'live' && url.protocol !== 'https:') throw invalid('url', 'A live endpoint must use https.');
  if (url.username !== '' || url.password !== '') throw invalid('url', 'url must not carry credentials.');
  try {
    await checkTarget(url, deps.resolve, deps.allowPrivate && mode === 'sandbox');
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    // Local development is the one reason to aim a sandbox endpoint at a private address: say how.
    const hint =
      error.privateTarget && mode === 'sandbox'
        ? ' To receive sandbox webhooks on this machine or network (local development, tests), start the server ' +
          'with WEBHOOK_ALLOW_PRIVATE_TARGETS=on; live endpoints never may.'
        : '';
    throw invalid('url', `url is refused: ${error.message}.${hint}`);
  }
}

/** `whsec_` + base64 of 32 random bytes, as Standard Webhooks libraries expect. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function description(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const text = cleanText(raw, DESCRIPTION_MAX);
  if (text === null) throw invalid('description', cleanTextRule('description', DESCRIPTION_MAX));
  return text;
}

export async function findEndpointOrThrow(db: Db, owner: Principal, id: string): Promise<WebhookEndpointsTable> {
  const row = isIdOf(WEBHOOK_ENDPOINT.prefix, id) ? await findOwned(db, 'webhook_endpoints', owner, id) : undefined;
  if (row === undefined) throw notFound(WEBHOOK_ENDPOINT, id);
  return row;
}

export async function createEndpoint(
  deps: EndpointsDeps,
  ctx: WriteContext<Principal>,
  body: EndpointCreateBody,
): Promise<WebhookEndpointWithSecret> {
  const { trx, owner, now } = ctx;
  if ((await repo.countEndpoints(trx, owner)) >= ENDPOINTS_PER_ORG) {
    throw new ApiError(
      'webhook_endpoint_limit_reached',
      `This organisation already has ${ENDPOINTS_PER_ORG} webhook endpoints of this mode.`,
    );
  }
  const secret = newSecret();
  const row: WebhookEndpointsTable = {
    id: newId(WEBHOOK_ENDPOINT.prefix, now.getTime()),
    org_id: owner.orgId,
    mode: owner.mode,
    url: body.url,
    enabled_events: JSON.stringify(body.enabled_events),
    description: description(body.description),
    status: 'enabled',
    disabled_reason: null,
    secret: deps.box.seal(secret),
    previous_secret: null,
    previous_expires_at: null,
    failing_since: null,
    metadata: JSON.stringify(metadataOnCreate(body.metadata)),
    created_at: storedTime(now),
  };
  await repo.insertEndpoint(trx, row);
  return endpointWithSecret(row, secret);
}

export async function updateEndpoint(
  ctx: WriteContext<Principal>,
  id: string,
  body: EndpointUpdateBody,
): Promise<WebhookEndpoint> {
  const { trx } = ctx;
  const row = await findEndpointOrThrow(trx, ctx.owner, id);
  const changes: Partial<WebhookEndpointsTable> = {};
  if (body.url !== undefined) changes.url = body.url;
  if (body.enabled_events !== undefined) changes.enabled_events = JSON.stringify(body.enabled_events);
  if (body.description !== undefined) changes.description = description(body.description);
  if (body.metadata !== undefined) {
    const merged = JSON.stringify(mergeMetadata(parseMetadata(row.metadata), body.metadata));
    if (merged !== row.metadata) changes.metadata = merged;
  }
  if (body.status === 'disabled' && row.status === 'enabled') {
    Object.assign(changes, { status: 'disabled', disabled_reason: 'manual' });
    await repo.failPendingDeliveries(trx, row.id);
  }
  if (body.status === 'enabled' && row.status === 'disabled')
    Object.assign(changes, { status: 'enabled', disabled_reason: null, failing_since: null });
  if (Object.keys(changes).length > 0) await repo.updateEndpoint(trx, row.id, changes);
  return endpointFromRow({ ...row, ...changes });
}

export async function deleteEndpoint({ trx, owner }: WriteContext<Principal>, id: string) {
  const row = await findEndpointOrThrow(trx, owner, id);
  await repo.deleteEndpoint(trx, row.id);
  return { id: row.id, object: 'webhook_endpoint' as const, deleted: true as const };
}

/** A new secret; the current one keeps signing beside it for `expireInSeconds` (0: not at all). */
export async function rotateSecret(
  deps: EndpointsDeps,
  ctx: WriteContext<Principal>,
  id: string,
  expireInSeconds = 86_400,
): Promise<WebhookEndpointWithSecret> {
  const { trx, owner, now } = ctx;
  const row = await findEndpointOrThrow(trx, owner, id);
  const secret = newSecret();
  const keep = expireInSeconds > 0;
  const changes: Partial<WebhookEndpointsTable> = {
    secret: deps.box.seal(secret),
    previous_secret: keep ? row.secret : null,
    previous_expires_at: keep ? storedTime(new Date(now.getTime() + expireInSeconds * 1000)) : null,
  };
  await repo.updateEndpoint(trx, row.id, changes);
  return endpointWithSecret({ ...row, ...changes }, secret);
}

/** Sends a `webhook_endpoint.test` event to this endpoint only; the answer is the event. */
export async function testEndpoint(deps: EndpointsDeps, ctx: WriteContext<Principal>, id: string): Promise<Event> {
  const row = await findEndpointOrThrow(ctx.trx, ctx.owner, id);
  if (row.status !== 'enabled')
    throw new ApiError('webhook_endpoint_disabled', 'This webhook endpoint is disabled; enable it first.', {
      param: 'id',
    });
  const test = { type: 'webhook_endpoint.test' as const, object: endpointFromRow(row) };
  const [event] = await deps.events.emit(ctx, [test], { numberNow: true });
  return eventFromRow(event!);
}

export async function listEndpoints(deps: EndpointsDeps, owner: Principal, params: ListParams) {
  const page = await listPage(
    params,
    async (id) =>
      isIdOf(WEBHOOK_ENDPOINT.prefix, id) && (await findOwned(deps.db, 'webhook_endpoints', owner, id)) !== undefined,
    (take, cursor) => pageOwned(deps.db, 'webhook_endpoints', owner, take, cursor),
  );
  return { object: 'list' as const, data: page.rows.map(endpointFromRow), has_more: page.hasMore };
}
