import type { Db } from '../../db/database.ts';
import type { Trx } from '../../db/write.ts';
import type { Mode } from '../keys/principal.ts';
import type { IdempotencyKeysTable } from './tables.ts';

type Executor = Db | Trx;

export interface Scope {
  orgId: string;
  mode: Mode;
  key: string;
}

export interface StoredResponse {
  response_status: number;
  response_body: string;
  request_id: string;
}

const where = (scope: Scope) => ({ org_id: scope.orgId, mode: scope.mode, key: scope.key });
/** The claim as held by one request and not yet answered: what every later write to a claim must match. */
const heldBy = (scope: Scope, requestId: string) => ({ ...where(scope), request_id: requestId, response_status: null });

/** One atomic insert: true when this request now holds the key. */
export async function tryClaim(
  db: Executor,
  scope: Scope,
  fingerprint: string,
  requestId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({
      ...where(scope),
      fingerprint,
      request_id: requestId,
      locked_at: now,
      response_status: null,
      response_body: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['org_id', 'mode', 'key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export function findClaim(db: Executor, scope: Scope): Promise<IdempotencyKeysTable | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where((eb) => eb.and(where(scope)))
    .executeTakeFirst();
}

/** Compare-and-set on the holder: only one of several takers of an abandoned claim wins. */
export async function takeOver(
  db: Executor,
  scope: Scope,
  fromRequestId: string,
  toRequestId: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ request_id: toRequestId, locked_at: now })
    .where((eb) => eb.and(heldBy(scope, fromRequestId)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Inside the request's write transaction; false when the claim is no longer ours. */
export async function storeResponse(
  trx: Trx,
  scope: Scope,
  requestId: string,
  status: number,
  body: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('idempotency_keys')
    .set({ response_status: status, response_body: body })
    .where((eb) => eb.and(heldBy(scope, requestId)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseClaim(db: Executor, scope: Scope, requestId: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb.and(heldBy(scope, requestId)))
    .execute();
}

/**
 * Deletes about `limit` of the oldest keys created before `cutoff` (more only on equal timestamps); returns how
 * many.
 */
export async function deleteOlderThan(db: Executor, cutoff: string, limit: number): Promise<number> {
  const last = await db
    .selectFrom('idempotency_keys')
    .select('created_at')
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', cutoff)
    .where('created_at', '<=', last?.created_at ?? cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
