import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { ConfigError } from '../kit/settings.ts';
import { storedTime } from '../kit/time.ts';
import { isSealed, type SecretBox } from './box.ts';
import { keyFileFor, type SecretsSettings } from './key-source.ts';
import { contextOf, type SealedColumn } from './rotate.ts';

export interface SecretKeyChecksTable {
  /** The id of a key that sealed something here (box.ts: the first 8 hex digits of its SHA-256). */
  key_id: string;
  /** CHECK_PLAIN sealed under that key: it opens under that key and no other (AES-GCM authenticates it). */
  check_value: string;
  created_at: string;
}

declare module '../../db/tables.ts' {
  interface Tables {
    secret_key_checks: SecretKeyChecksTable;
  }
}

const CHECK_PLAIN = 'plinth secrets key check';
const CHECK_CONTEXT = 'secret_key_checks.check_value';

function opens(box: SecretBox, sealed: string, context: string): boolean {
  try {
    box.open(sealed, context);
    return true;
  } catch {
    return false;
  }
}

const keyIdIn = (sealed: string) => sealed.split(':')[2] ?? '?';

/**
 * Whether `box` (SECRETS_KEY, and SECRETS_KEY_PREVIOUS while rotating) opens what this database holds, judged by
 * the check value every key that sealed here left behind; a database from before the checks is judged by one
 * sealed value per column. When it does, the current key's check value is recorded (once). Null when all is
 * well, else why not, for a start-up that must stop with one line naming SECRETS_KEY: serving with secrets it
 * cannot open would leave every webhook unsigned and pending, every EIN unreadable.
 */
export async function checkSecretsKey(
  database: Database,
  box: SecretBox,
  columns: SealedColumn[],
): Promise<string | null> {
  const checks = await database.db.selectFrom('secret_key_checks').selectAll().execute();
  const unopened = checks.filter((c) => !opens(box, c.check_value, CHECK_CONTEXT)).map((c) => c.key_id);
  if (checks.length === 0) {
    for (const column of columns) {
      const sample = await sql<{ value: string }>`select ${sql.ref(column.column)} as value
        from ${sql.table(column.table)} where ${sql.ref(column.column)} like 'enc:v1:%' limit 1`.execute(database.db);
      const value = sample.rows[0]?.value;
      if (value !== undefined && isSealed(value) && !opens(box, value, contextOf(column)))
        unopened.push(keyIdIn(value));
    }
  }
  if (unopened.length > 0)
    return (
      `does not open the secrets this database holds (sealed under key ${[...new Set(unopened)].join(', ')}; this ` +
      `key is ${box.keyId}). Set it to the key that sealed them; to change keys, set the new one here and the old ` +
      'one in SECRETS_KEY_PREVIOUS, then run `cli secrets rotate`'
    );
  if (!checks.some((c) => c.key_id === box.keyId)) {
    const row = {
      key_id: box.keyId,
      check_value: box.seal(CHECK_PLAIN, CHECK_CONTEXT),
      created_at: storedTime(new Date()),
    };
    // Two processes starting at once with a new key both get here: the first row stays.
    await database.write((trx) =>
      trx
        .insertInto('secret_key_checks')
        .values(row)
        .onConflict((c) => c.column('key_id').doNothing())
        .execute(),
    );
  }
  return null;
}

/**
 * The check as start-up (and `cli secrets rotate`) makes it: a ConfigError, one line naming SECRETS_KEY, or the key
 * file that stood in for it.
 */
export async function requireSecretsKey(
  database: Database,
  box: SecretBox,
  columns: SealedColumn[],
  settings: SecretsSettings,
): Promise<void> {
  const mismatch = await checkSecretsKey(database, box, columns);
  if (mismatch === null) return;
  const file = settings.SECRETS_KEY === '' && settings.DATABASE_URL.startsWith('sqlite:');
  const name = file ? `SECRETS_KEY (unset: the key in ${keyFileFor(settings.DATABASE_URL.slice(7))})` : 'SECRETS_KEY';
  throw new ConfigError(name, mismatch);
}

/** After `secrets rotate` re-sealed everything under the current key: the other keys' checks go with them. */
export async function forgetOtherKeys(database: Database, box: SecretBox): Promise<void> {
  await database.write((trx) => trx.deleteFrom('secret_key_checks').where('key_id', '!=', box.keyId).execute());
}
