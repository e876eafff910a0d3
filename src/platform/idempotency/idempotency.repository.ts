import { deleteCreatedBefore } from '../../db/batched-delete.ts';
import type { Trx } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import type { Mode } from '../auth/principal.ts';
import type { IdempotencyKeysTable } from './tables.ts';

/**
 * Whose Idempotency-Key it is: the API key that sent it (docs/api.md#safe-retries-idempotency-key), with its org and
 * mode. Another key of the same org sending the same value has a scope of its own.
 */
export interface Scope {
  orgId: string;
  mode: Mode;
  keyId: string;
  key: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: string;
  /** The request whose response this is: a replay answers with its Request-Id. */
  requestId: string;
}

const where = (scope: Scope) => ({ org_id: scope.orgId, mode: scope.mode, api_key_id: scope.keyId, key: scope.key });

/**
 * PostgreSQL: holds the scope for the rest of the transaction, or answers false at once when another transaction
 * (any process) holds it. The lock ends with the transaction, also when its process dies: no claim row can be left
 * behind. (SQLite needs none: its single writer runs one write at a time.)
 */
export async function tryLockScope(trx: Trx, scope: Scope): Promise<boolean> {
  return trx.tryTurn(`idempotency\n${scope.keyId}\n${scope.key}`);
}

const SCOPE = { org_id: true, mode: true, api_key_id: true, key: true } as const;
// By the primary key (api key, value); org and mode too, which that key's already are.
// The columns by name, not `*`: a statement of `*` runs unnamed, parsed at every keyed write (db/postgres/pg-write.ts).
const selectResponse = prepared<
  Record<keyof typeof SCOPE, string>,
  Pick<IdempotencyKeysTable, 'fingerprint' | 'response_status' | 'response_body' | 'request_id'>
>(SCOPE, (db, p) =>
  db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'response_status', 'response_body', 'request_id'])
    .where('api_key_id', '=', p.api_key_id)
    .where('key', '=', p.key)
    .where('org_id', '=', p.org_id)
    .where('mode', '=', p.mode as Mode),
);

/** The stored response for the scope, if a request with this key completed. */
export async function findResponse(trx: Trx, scope: Scope): Promise<StoredResponse | undefined> {
  const row = (await selectResponse(trx, where(scope))).rows[0];
  if (row === undefined) return undefined;
  return {
    fingerprint: row.fingerprint,
    status: row.response_status,
    body: row.response_body,
    requestId: row.request_id,
  };
}

const insertResponse = preparedInsert('idempotency_keys', {
  ...SCOPE,
  fingerprint: true,
  request_id: true,
  response_status: true,
  response_body: true,
  created_at: true,
});

/** In the resource's own transaction: the response that a retry with the same key will get. */
export async function storeResponse(trx: Trx, scope: Scope, response: StoredResponse, now: string): Promise<void> {
  insertResponse(trx, {
    ...where(scope),
    fingerprint: response.fingerprint,
    request_id: response.requestId,
    response_status: response.status,
    response_body: response.body,
    created_at: now,
  });
}

/** Deletes about `limit` of the oldest keys created before `cutoff` (more only on equal timestamps). */
export function deleteOlderThan(trx: Trx, cutoff: string, limit: number): Promise<number> {
  return deleteCreatedBefore(trx, 'idempotency_keys', cutoff, limit);
}
