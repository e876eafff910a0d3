import { deleteCreatedBefore } from '../../db/batched-delete.ts';
import type { Trx } from '../../db/database.ts';
import { prepared } from '../../db/prepared.ts';
import { preparedInsert } from '../../db/prepared-insert.ts';
import type { Mode } from '../auth/principal.ts';
import type { IdempotencyKeysTable } from './tables.ts';

export interface Scope {
  orgId: string;
  mode: Mode;
  key: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: string;
  /** The request whose response this is: a replay answers with its Request-Id. */
  requestId: string;
}

const where = (scope: Scope) => ({ org_id: scope.orgId, mode: scope.mode, key: scope.key });

/**
 * PostgreSQL: holds the scope for the rest of the transaction, or answers false at once when another transaction
 * (any process) holds it. The lock ends with the transaction, also when its process dies: no claim row can be left
 * behind. (SQLite needs none: its single writer runs one write at a time.)
 */
export async function tryLockScope(trx: Trx, scope: Scope): Promise<boolean> {
  return trx.tryTurn(`idempotency\n${scope.orgId}\n${scope.mode}\n${scope.key}`);
}

const SCOPE = { org_id: true, mode: true, key: true } as const;
const selectResponse = prepared<Record<'org_id' | 'mode' | 'key', string>, IdempotencyKeysTable>(SCOPE, (db, p) =>
  db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('org_id', '=', p.org_id)
    .where('mode', '=', p.mode as Mode)
    .where('key', '=', p.key),
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
