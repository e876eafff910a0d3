import type { Database, Db } from '../../db/database.ts';
import { findOwned, pageOwned } from '../../db/owned.ts';
import { generateKey, hashKey, keyHint } from '../../platform/auth/key-format.ts';
import {
  describe,
  type KeyPermissions,
  PERMISSION_GROUPS,
  parsePermissions,
  within,
} from '../../platform/auth/permissions.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import type { ApiKeysTable } from '../../platform/auth/tables.ts';
import { ApiError, notFound } from '../../platform/http/errors.ts';
import { type ListParams, listPage, type Page } from '../../platform/http/pagination.ts';
import { isIdOf, newId } from '../../platform/kit/ids.ts';
import { cleanText, cleanTextRule } from '../../platform/kit/text.ts';
import { type Clock, storedTime } from '../../platform/kit/time.ts';
import type { WriteContext } from '../../platform/operations/context.ts';
import type { EventRecorder, EventRequest } from '../../platform/outbox/emit.ts';
import * as repo from './api-keys.repository.ts';
import { API_KEY, type ApiKey, type ApiKeyCreateBody, type NewApiKey } from './api-keys.schema.ts';
import { apiKeyFromRow, newApiKeyFromRow } from './api-keys.view.ts';

export interface KeysDeps {
  /** Reads. */
  db: Db;
  /** Writes of their own (the CLI's, a sign-up's); the API's writes get their transaction from withIdempotency. */
  write: Database['write'];
  clock: Clock;
  events: EventRecorder;
}

export interface CreatedKey {
  row: ApiKeysTable;
  /** The secret; shown once, at creation, and never stored. */
  key: string;
}

/** A new key of the write's owner (its org, its mode), with its `api_key.created` event. */
export async function insertNewKey(
  deps: Pick<KeysDeps, 'events'>,
  ctx: WriteContext,
  name: string | null = null,
  permissions: KeyPermissions | null = null,
): Promise<CreatedKey> {
  const { trx, now } = ctx;
  const { orgId, mode } = ctx.owner;
  const key = generateKey(mode, permissions !== null);
  const row: ApiKeysTable = {
    id: newId(API_KEY.prefix, now.getTime()),
    org_id: orgId,
    mode,
    secret_hash: hashKey(key),
    hint: keyHint(key),
    name,
    created_at: storedTime(now),
    revoked_at: null,
    last_used_at: null,
    permissions: permissions === null ? null : JSON.stringify(permissions),
  };
  await repo.insertKey(trx, row);
  await deps.events.emit(ctx, [{ type: 'api_key.created', object: apiKeyFromRow(row) }]);
  return { row, key };
}

/**
 * Self-serve sandbox (docs/api.md#sign-up--post-v1sandboxsignup-no-key--200): a new org, named by its id, and its first
 * sandbox key.
 */
export function signUp(
  deps: KeysDeps,
  displayName: string | undefined,
  request: EventRequest | null,
): Promise<{ org_id: string; api_key: NewApiKey }> {
  const name = displayName === undefined ? undefined : cleanText(displayName, 100);
  if (name === null) {
    throw new ApiError('parameter_invalid', cleanTextRule('name', 100), { param: 'name' });
  }
  return deps.write(async (trx) => {
    const id = newId('org');
    const now = deps.clock();
    await repo.insertOrg(trx, { id, name: id, display_name: name ?? null, created_at: storedTime(now) });
    const { row, key } = await insertNewKey(deps, { trx, owner: { orgId: id, mode: 'sandbox' }, request, now });
    return { org_id: id, api_key: newApiKeyFromRow(row, key) };
  });
}

/** A create's `permissions` as a restricted key's, every group listed; null (a full key) when none was sent. */
function permissionsOf(sent: Record<string, unknown> | undefined): KeyPermissions | null {
  if (sent === undefined) return null;
  const unknown = Object.keys(sent).find((group) => !(PERMISSION_GROUPS as readonly string[]).includes(group));
  if (unknown !== undefined)
    throw new ApiError(
      'parameter_invalid',
      `permissions has no group ${JSON.stringify(unknown.slice(0, 40))}; the groups are ${PERMISSION_GROUPS.join(', ')}.`,
      { param: `permissions.${unknown.slice(0, 40)}` },
    );
  return parsePermissions(JSON.stringify(sent));
}

/** The first group in which `other` holds more than `held`. */
const widerGroup = (held: KeyPermissions, other: KeyPermissions | null) =>
  PERMISSION_GROUPS.find((g) => other === null || !within({ ...held, [g]: other[g] }, held))!;

/** A key never mints a key wider than itself: the refusal names the first group it would widen. */
function widerThanCaller(held: KeyPermissions, wanted: KeyPermissions | null): ApiError {
  const group = widerGroup(held, wanted);
  const asked = wanted === null ? 'a full key' : `a key with ${describe(group, wanted[group])}`;
  return new ApiError(
    'permission_denied',
    `This key has ${describe(group, held[group])}; it cannot create ${asked}. A key never creates a key wider than itself.`,
    { param: wanted === null ? 'permissions' : `permissions.${group}` },
  );
}

/**
 * A restricted key revokes only keys within its own permissions (docs/api.md#restricted-keys): else one that may
 * manage keys could revoke the org's full keys. The refusal names the first group in which the other key is wider.
 */
function refuseWiderTarget(owner: Principal, row: ApiKeysTable): void {
  const target = parsePermissions(row.permissions);
  if (within(target, owner.permissions)) return;
  const held = owner.permissions!;
  const group = widerGroup(held, target);
  const other = target === null ? 'a full key' : `a key with ${describe(group, target[group])}`;
  throw new ApiError(
    'permission_denied',
    `This key has ${describe(group, held[group])}; ${row.id} is ${other}. A restricted key revokes only keys ` +
      'within its own permissions: revoke this one with a full key, or a key that holds at least what it holds.',
  );
}

/**
 * A new key for the caller's org; a sandbox key may not mint a live one, and an org holds at most `keysPerOrg`
 * active keys per mode (checked inside the write, so that revocations committed meanwhile count).
 */
export async function createKeyForPrincipal(
  deps: KeysDeps,
  ctx: WriteContext<Principal>,
  body: ApiKeyCreateBody,
  keysPerOrg: number,
): Promise<NewApiKey> {
  const { trx, owner } = ctx;
  const mode = body.mode ?? owner.mode;
  if (owner.mode === 'sandbox' && mode === 'live') {
    throw new ApiError('permission_denied', 'A sandbox key cannot create a live key; use a live key.', {
      param: 'mode',
    });
  }
  const name = body.name === undefined ? null : cleanText(body.name, 100);
  if (name === null && body.name !== undefined)
    throw new ApiError('parameter_invalid', cleanTextRule('name', 100), { param: 'name' });
  await repo.lockOrg(trx, owner.orgId);
  if ((await repo.countActiveKeys(trx, owner.orgId, mode)) >= keysPerOrg) {
    throw new ApiError(
      'api_key_limit_reached',
      `This organisation already has ${keysPerOrg} active ${mode} keys; revoke one you no longer use first.`,
    );
  }
  const permissions = permissionsOf(body.permissions);
  if (!within(permissions, owner.permissions)) throw widerThanCaller(owner.permissions!, permissions);
  const { row, key } = await insertNewKey(deps, { ...ctx, owner: { orgId: owner.orgId, mode } }, name, permissions);
  return newApiKeyFromRow(row, key);
}

export function listKeysForPrincipal(
  deps: KeysDeps,
  owner: Principal,
  params: ListParams,
): Promise<Page<ApiKeysTable>> {
  return listPage(
    params,
    async (id) => isIdOf(API_KEY.prefix, id) && (await findOwned(deps.db, 'api_keys', owner, id)) !== undefined,
    (take, cursor) => pageOwned(deps.db, 'api_keys', owner, take, cursor),
  );
}

/** One of the caller's keys (its org, its mode), or 404 exactly as for an id that never existed. */
async function keyOfOwner(db: Db, owner: Principal, id: string): Promise<ApiKeysTable> {
  const row = isIdOf(API_KEY.prefix, id) ? await findOwned(db, 'api_keys', owner, id) : undefined;
  if (row === undefined) throw notFound(API_KEY, id);
  return row;
}

export async function retrieveKeyForPrincipal(deps: KeysDeps, owner: Principal, id: string): Promise<ApiKey> {
  return apiKeyFromRow(await keyOfOwner(deps.db, owner, id));
}

/**
 * Revokes one of the caller's keys; harmless when already revoked. A restricted caller may revoke only keys within
 * its own permissions. The org's last active key of a mode is refused (a sandbox org would be locked out for good);
 * the operator CLI (revokeKeyById) can still revoke it.
 */
export async function revokeKeyForPrincipal(deps: KeysDeps, ctx: WriteContext<Principal>, id: string) {
  const { trx, owner } = ctx;
  const row = await keyOfOwner(trx, owner, id);
  refuseWiderTarget(owner, row);
  await repo.lockOrg(trx, row.org_id);
  const current = (await repo.findKeyById(trx, row.id))!;
  if (current.revoked_at === null && (await repo.countActiveKeys(trx, row.org_id, row.mode)) <= 1) {
    throw new ApiError(
      'api_key_last_active',
      `This is the organisation's last active ${row.mode} key; create another key before revoking it.`,
    );
  }
  return revokeAndEmit(deps, ctx, row.id);
}

/** Revokes once, with its `api_key.revoked` event; a second revocation changes nothing and emits nothing. */
export async function revokeAndEmit(
  deps: Pick<KeysDeps, 'events'>,
  ctx: Omit<WriteContext, 'owner'>,
  id: string,
): Promise<ApiKey> {
  const { trx, now } = ctx;
  const revoked = await repo.revokeKey(trx, id, storedTime(now));
  const row = (await repo.findKeyById(trx, id))!;
  const key = apiKeyFromRow(row);
  const owner = { orgId: row.org_id, mode: row.mode };
  if (revoked) await deps.events.emit({ ...ctx, owner }, [{ type: 'api_key.revoked', object: key }]);
  return key;
}
