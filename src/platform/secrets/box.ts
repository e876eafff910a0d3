import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (README.md#secrets-at-rest): AES-256-GCM under SECRETS_KEY. A sealed value names the key that sealed
 * it, so values sealed under SECRETS_KEY_PREVIOUS still open during a rotation, and `cli secrets rotate` can find them.
 * Each value is bound to where it is stored (`context`, e.g. `accounts.kyb_ein`, as GCM's additional data): a
 * ciphertext copied into another column does not open there.
 *
 * Form: `enc:v1:<key id>:<iv>:<ciphertext>:<tag>`, base64url parts. The key id is the first 8 hex digits of
 * SHA-256 of the key: enough to tell keys apart, nothing about the key. Values stored before encryption existed
 * (plain text, never starting `enc:`) are read as they are, until `secrets rotate` seals them.
 */
export interface SecretBox {
  /** The id of the key new values are sealed with. */
  readonly keyId: string;
  seal(plain: string, context: string): string;
  /** The plain text; throws when the value was sealed under a key this box does not hold, or was altered. */
  open(stored: string, context: string): string;
  /** True when `stored` is plain text or sealed under another key than the current one. */
  needsResealing(stored: string): boolean;
}

const PREFIX = 'enc:v1:';
export const SECRET_KEY_BYTES = 32;

export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** A box that seals with `current` and opens what `current` or any of `previous` sealed. */
export function createSecretBox(current: Buffer, previous: Buffer[] = []): SecretBox {
  const keys = new Map<string, Buffer>();
  for (const key of [current, ...previous]) {
    if (key.length !== SECRET_KEY_BYTES) throw new Error(`a secrets key must be ${SECRET_KEY_BYTES} bytes`);
    keys.set(keyIdOf(key), key);
  }
  const keyId = keyIdOf(current);
  return {
    keyId,
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, ciphertext, cipher.getAuthTag()].map((b) => b.toString('base64url'));
      return `${PREFIX}${keyId}:${parts.join(':')}`;
    },
    open(stored, context) {
      if (!isSealed(stored)) return stored;
      const [id, iv, ciphertext, tag] = stored.slice(PREFIX.length).split(':');
      const key = keys.get(id ?? '');
      if (key === undefined || iv === undefined || ciphertext === undefined || tag === undefined)
        throw new Error(`sealed under key ${id}, which neither SECRETS_KEY nor SECRETS_KEY_PREVIOUS is`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        .setAAD(Buffer.from(context, 'utf8'))
        .setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
    needsResealing: (stored) => !stored.startsWith(`${PREFIX}${keyId}:`),
  };
}
