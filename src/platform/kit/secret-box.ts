import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Secrets at rest (CONTRACT §8): AES-256-GCM under SECRETS_KEY. A sealed value is
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url), so a later key rotation can tell which key sealed it.
 *
 * A stop-gap until the secrets-at-rest module (SECRETS_KEY_PREVIOUS, `cli secrets rotate`) lands on main: it keeps
 * the same setting name and the same idea (a key id in every ciphertext) so that the merge replaces this file.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function secretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('a secrets key is 32 bytes');
  const id = keyId(key);
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', id, b64(iv), b64(cipher.getAuthTag()), b64(body)].join('.');
    },
    open(sealed) {
      const [version, kid, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || kid !== id) throw new Error(`sealed under an unknown key (${kid})`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body!, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** SECRETS_KEY as a setting: empty, or base64 of exactly 32 bytes. */
export function parseSecretsKey(raw: string): Buffer | null {
  if (raw === '') return null;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) throw new Error('must be base64 of 32 random bytes');
  return key;
}

/**
 * The key to seal with: SECRETS_KEY when set; else, for a SQLite file, one generated on first start into a file
 * beside the database (mode 0600) and reused; for `:memory:`, one for the life of the process. PostgreSQL has no
 * file of its own beside which to keep one, so there it must be set.
 */
export function resolveSecretsKey(configured: Buffer | null, databaseUrl: string): Buffer {
  if (configured !== null) return configured;
  if (databaseUrl === 'sqlite::memory:') return randomBytes(32);
  if (!databaseUrl.startsWith('sqlite:')) throw new Error('SECRETS_KEY: required with PostgreSQL (base64 of 32 bytes)');
  const path = join(dirname(databaseUrl.slice('sqlite:'.length)), 'secrets.key');
  try {
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  // `wx`: if another process wrote it first, this fails rather than replacing a key already in use.
  writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
