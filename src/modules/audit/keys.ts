import { generateKeyPairSync } from 'node:crypto';
import type { Database, Db } from '../../db/database.ts';
import { newId } from '../../platform/kit/ids.ts';
import { storedTime } from '../../platform/kit/time.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { contextOf, type SealedColumn } from '../../platform/secrets/rotate.ts';
import { keyIdOf, publicKeyOf, type SigningKey, signingKey, verifierKey } from './note.ts';

/**
 * The instance's checkpoint keys (docs/api.md#verifying-the-history): made at first start, the private half sealed
 * like every other secret; rotated by `cli audit rotate-key`, the old key kept (retired) to check what it signed.
 */

export interface AuditKeysTable {
  id: string;
  /** The key's name in signed notes. */
  name: string;
  /** The raw 32-byte Ed25519 public key, base64. */
  public_key: string;
  /** PKCS #8 DER, base64, sealed under SECRETS_KEY. */
  private_key: string;
  /** 1 for the key that signs; null once retired (the unique index allows one active key). */
  active: number | null;
  created_at: string;
  retired_at: string | null;
}

declare module '../../db/tables.ts' {
  interface Tables {
    audit_keys: AuditKeysTable;
  }
}

export const AUDIT_KEY_COLUMN: SealedColumn = { table: 'audit_keys', column: 'private_key' };

/** The name every signature line carries. */
export const KEY_NAME = 'plinth';

export interface PublicKeyView {
  object: 'audit.public_key';
  name: string;
  key_id: string;
  algorithm: 'ed25519';
  public_key: string;
  verifier_key: string;
  created_at: string;
  retired_at: string | null;
}

export function publicKeyView(row: Pick<AuditKeysTable, 'name' | 'public_key' | 'created_at' | 'retired_at'>) {
  const raw = Buffer.from(row.public_key, 'base64');
  return {
    object: 'audit.public_key' as const,
    name: row.name,
    key_id: keyIdOf(row.name, raw).toString('hex'),
    algorithm: 'ed25519' as const,
    public_key: row.public_key,
    verifier_key: verifierKey(row.name, raw),
    created_at: row.created_at,
    retired_at: row.retired_at,
  };
}

function newKey(secrets: SecretBox, now: Date): AuditKeysTable {
  const { privateKey } = generateKeyPairSync('ed25519');
  const der = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
  return {
    id: newId('akey', now.getTime()),
    name: KEY_NAME,
    public_key: publicKeyOf(der).toString('base64'),
    private_key: secrets.seal(der, contextOf(AUDIT_KEY_COLUMN)),
    active: 1,
    created_at: storedTime(now),
    retired_at: null,
  };
}

/** Makes the active key if there is none (at start-up; of two processes starting at once, one makes it). */
export async function ensureKey(database: Database, secrets: SecretBox, now: Date): Promise<void> {
  const found = await database.db.selectFrom('audit_keys').select('id').where('active', '=', 1).executeTakeFirst();
  if (found !== undefined) return;
  const row = newKey(secrets, now);
  await database.write(async (trx) => {
    await trx
      .insertInto('audit_keys')
      .values(row)
      .onConflict((c) => c.column('active').doNothing())
      .execute();
  });
}

/** Retires the active key and makes a new one, in one write. */
export async function rotateKey(database: Database, secrets: SecretBox, now: Date): Promise<AuditKeysTable> {
  const row = newKey(secrets, now);
  await database.write(async (trx) => {
    await trx
      .updateTable('audit_keys')
      .set({ active: null, retired_at: storedTime(now) })
      .where('active', '=', 1)
      .execute();
    await trx.insertInto('audit_keys').values(row).execute();
  });
  return row;
}

/**
 * A key row made ready to sign, its private half unsealed and parsed once per key (not at every checkpoint): a
 * rotation makes a new row, so a new entry; the oldest entry goes once `kept` are held (keys are few).
 */
export function signingKeys(secrets: SecretBox, kept = 4): (row: AuditKeysTable) => SigningKey {
  const ready = new Map<string, SigningKey>();
  return (row) => {
    let key = ready.get(row.id);
    if (key === undefined) {
      key = signingKey(row.name, row.public_key, secrets.open(row.private_key, contextOf(AUDIT_KEY_COLUMN)));
      if (ready.size >= kept) ready.delete(ready.keys().next().value!);
      ready.set(row.id, key);
    }
    return key;
  };
}

export async function activeKey(db: Db): Promise<AuditKeysTable> {
  const row = await db.selectFrom('audit_keys').selectAll().where('active', '=', 1).executeTakeFirst();
  if (row === undefined) throw new Error('no active checkpoint key: the server makes one at start-up');
  return row;
}

/** Every key, newest (the active one) first: what a checkpoint may be signed by. */
export function allKeys(db: Db): Promise<AuditKeysTable[]> {
  return db.selectFrom('audit_keys').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}
