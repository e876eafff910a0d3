import type { Db } from '../../db/database.ts';
import { findKeyByHash, findKeyById } from './credentials.repository.ts';
import { hashKey, parseKey } from './key-format.ts';
import { parsePermissions } from './permissions.ts';
import type { Principal } from './principal.ts';
import type { ApiKeysTable } from './tables.ts';

/** Who a stored key acts for, with its permissions parsed once (then cached with the key). */
const principalOf = (row: ApiKeysTable): Principal => ({
  orgId: row.org_id,
  mode: row.mode,
  keyId: row.id,
  keyHint: row.hint,
  permissions: parsePermissions(row.permissions),
});

/** How long a verified key is trusted without looking again: the bound on how late a revocation takes effect. */
export const KEY_CACHE_MS = 1000;
const MAX_CACHED = 10_000;

export interface KeyVerifier {
  verify(presented: string): Promise<Principal | null>;
  /**
   * `verify`'s answer when it is known without a look-up (the key was verified less than KEY_CACHE_MS ago): what almost
   * every request asks, answered without a promise; undefined when `verify` must look.
   */
  known(presented: string): Principal | undefined;
  /**
   * The same check for a key known by its id (a dashboard session holds the id, never the key): its principal while
   * it is active, trusted for at most KEY_CACHE_MS like a presented key; null once it is revoked or gone.
   */
  verifyId(keyId: string): Promise<Principal | null>;
  /** This process revoked the key: stop trusting it now, not within the second. */
  forget(keyId: string): void;
}

/**
 * Verifies presented keys: format and checksum first, so garbage never reaches the database; then one indexed
 * lookup by SHA-256, whose answer is kept for at most KEY_CACHE_MS (counted from the lookup, so a revocation
 * committed by any process is refused everywhere within that second). Only verified keys are kept, at most
 * MAX_CACHED of them. Null for anything unusable: malformed, bad checksum, unknown, revoked.
 */
export function keyVerifier(db: Db, now: () => number = Date.now): KeyVerifier {
  const cache = new Map<string, { principal: Principal; until: number }>();
  // Keyed by the presented key itself (it is in this process's memory for the request anyway), so that a cached
  // key costs no SHA-256 and no checksum: only keys that passed `parseKey` are ever cached, and the same text passes
  // again, so the cache is asked first.
  const known = (presented: string): Principal | undefined => {
    const cached = cache.get(presented);
    return cached !== undefined && cached.until > now() ? cached.principal : undefined;
  };
  const verify = async (presented: string): Promise<Principal | null> => {
    const cached = known(presented);
    if (cached !== undefined) return cached;
    const mode = parseKey(presented);
    if (mode === null) return null;
    const lookedUp = now();
    const row = await findKeyByHash(db, hashKey(presented));
    cache.delete(presented);
    if (row === undefined || row.revoked_at !== null || row.mode !== mode) return null;
    const principal = principalOf(row);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(presented, { principal, until: lookedUp + KEY_CACHE_MS });
    return principal;
  };
  const byId = new Map<string, { principal: Principal; until: number }>();
  const verifyId = async (keyId: string): Promise<Principal | null> => {
    const cached = byId.get(keyId);
    if (cached !== undefined && cached.until > now()) return cached.principal;
    const lookedUp = now();
    const row = await findKeyById(db, keyId);
    byId.delete(keyId);
    if (row === undefined || row.revoked_at !== null) return null;
    const principal = principalOf(row);
    if (byId.size >= MAX_CACHED) byId.delete(byId.keys().next().value!);
    byId.set(keyId, { principal, until: lookedUp + KEY_CACHE_MS });
    return principal;
  };
  const forget = (keyId: string) => {
    for (const [presented, entry] of cache) if (entry.principal.keyId === keyId) cache.delete(presented);
    byId.delete(keyId);
  };
  return { verify, known, verifyId, forget };
}
