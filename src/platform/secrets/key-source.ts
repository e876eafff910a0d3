import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { writeFileDurably } from '../kit/durable-file.ts';
import { createSecretBox, SECRET_KEY_BYTES, type SecretBox } from './box.ts';

/** The SECRETS_KEY/SECRETS_KEY_PREVIOUS parser: empty, or 32 bytes in base64. */
export function secretsKeySetting(raw: string): string {
  if (raw === '') return raw;
  const bytes = Buffer.from(raw, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || bytes.length !== SECRET_KEY_BYTES)
    throw new Error(`must be ${SECRET_KEY_BYTES} random bytes in base64 (e.g. \`openssl rand -base64 32\`)`);
  return raw;
}

/** Where a SQLite deployment without SECRETS_KEY keeps its generated key: beside the database file. */
export function keyFileFor(sqlitePath: string): string {
  return `${sqlitePath}.secrets-key`;
}

/**
 * The key in the file beside the database, generated on first start (mode 0600). It is written durably (synced under a
 * temporary name, then linked to its name, which fails when it exists, so that two starts cannot write two keys; the
 * directory synced): a power cut just after the first start leaves no key file or a whole one, never an empty one.
 * A file readable by others is refused rather than trusted; so is one that is not a key, saying how to recover.
 */
function keyFromFile(path: string): Buffer {
  try {
    writeFileDurably(path, `${randomBytes(SECRET_KEY_BYTES).toString('base64')}\n`, { exclusive: true, mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(path, 0o600);
  if ((statSync(path).mode & 0o077) !== 0) throw new Error(`${path} must be readable by its owner only`);
  const text = readFileSync(path, 'utf8').trim();
  if (text === '') throw new Error(unreadableKeyFile(path, 'is empty'));
  try {
    return Buffer.from(secretsKeySetting(text), 'base64');
  } catch {
    throw new Error(unreadableKeyFile(path, 'does not hold a key'));
  }
}

/**
 * An empty or torn key file: what a power cut during the first start left behind before keys were written durably,
 * or damage. Generating a new key would make every secret already sealed unreadable, so the operator decides.
 */
function unreadableKeyFile(path: string, what: string): string {
  return (
    `the secrets key file ${path} ${what} (${SECRET_KEY_BYTES} random bytes in base64 expected): it was cut short ` +
    'while first written (a crash or power cut) or damaged. Restore it from your backup of the database and its ' +
    'key file. If this database holds no secrets yet (a new deployment where no account was given an EIN and no ' +
    'webhook endpoint was created), delete the file and start again: a new key is generated. See docs/deploy.md, ' +
    '"Power loss".'
  );
}

export interface SecretsSettings {
  DATABASE_URL: string;
  SECRETS_KEY: string;
  SECRETS_KEY_PREVIOUS: string;
}

/**
 * The box for this deployment. SECRETS_KEY when set; otherwise, with SQLite, the generated key file (config has
 * already refused PostgreSQL without a key); an in-memory SQLite database gets a key that lives as long as it.
 */
export function secretBoxFor(settings: SecretsSettings): SecretBox {
  const previous = settings.SECRETS_KEY_PREVIOUS === '' ? [] : [Buffer.from(settings.SECRETS_KEY_PREVIOUS, 'base64')];
  if (settings.SECRETS_KEY !== '') return createSecretBox(Buffer.from(settings.SECRETS_KEY, 'base64'), previous);
  const path = settings.DATABASE_URL.slice('sqlite:'.length);
  if (!settings.DATABASE_URL.startsWith('sqlite:')) throw new Error('SECRETS_KEY is required with PostgreSQL');
  if (path === ':memory:') return createSecretBox(randomBytes(SECRET_KEY_BYTES), previous);
  return createSecretBox(keyFromFile(keyFileFor(path)), previous);
}
