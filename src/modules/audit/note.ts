import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/**
 * Checkpoints as C2SP signed notes (https://c2sp.org/signed-note, https://c2sp.org/tlog-checkpoint), with Ed25519
 * keys (docs/api.md#verifying-the-history). A checkpoint's text is three lines, origin, size and the base64 of the
 * chain's head hash, each ending in a newline; the signature line follows an empty line:
 *
 *   plinth/org_…/live
 *   1042
 *   mGS5rR8n0W0…=
 *
 *   — plinth AbCdEf…
 *
 * The signature line's base64 is the key id (4 bytes) then the Ed25519 signature of the text (64 bytes). The key id
 * is the first 4 bytes of SHA-256(name, "\n", 0x01, the 32-byte public key); the verifier key, as C2SP writes it, is
 * `name+<key id, hex>+<base64 of 0x01 and the public key>`.
 */

const ED25519 = 0x01;
// The DER prefix of an Ed25519 SubjectPublicKeyInfo: the raw 32-byte key follows it.
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export interface Checkpoint {
  origin: string;
  size: number;
  /** The chain's head hash, hex. */
  hash: string;
}

/** The 4-byte id C2SP gives an Ed25519 key of that name. */
export function keyIdOf(name: string, publicKey: Buffer): Buffer {
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${name}\n`), Buffer.of(ED25519), publicKey]))
    .digest()
    .subarray(0, 4);
}

/** The verifier key string: `name+hex key id+base64(0x01 ‖ public key)`. */
export function verifierKey(name: string, publicKey: Buffer): string {
  return `${name}+${keyIdOf(name, publicKey).toString('hex')}+${Buffer.concat([Buffer.of(ED25519), publicKey]).toString('base64')}`;
}

/** A key pair's halves as stored: the raw public key (base64) and the private key (PKCS #8 DER, base64). */
export function publicKeyOf(privateKeyDer: string): Buffer {
  const spki = createPublicKey(
    createPrivateKey({ key: Buffer.from(privateKeyDer, 'base64'), format: 'der', type: 'pkcs8' }),
  ).export({ format: 'der', type: 'spki' });
  return spki.subarray(SPKI_PREFIX.length);
}

export function checkpointText(c: Checkpoint): string {
  return `${c.origin}\n${c.size}\n${Buffer.from(c.hash, 'hex').toString('base64')}\n`;
}

/** A checkpoint key ready to sign: its name, its 4-byte key id and its private half, parsed once. */
export interface SigningKey {
  name: string;
  id: Buffer;
  privateKey: KeyObject;
}

/** A stored key (the raw public key, base64; the private key, PKCS #8 DER, base64) made ready to sign. */
export function signingKey(name: string, publicKey: string, privateKeyDer: string): SigningKey {
  return {
    name,
    id: keyIdOf(name, Buffer.from(publicKey, 'base64')),
    privateKey: createPrivateKey({ key: Buffer.from(privateKeyDer, 'base64'), format: 'der', type: 'pkcs8' }),
  };
}

/** The signed note of a checkpoint. */
export function signCheckpoint(c: Checkpoint, key: SigningKey): string {
  const text = checkpointText(c);
  const signature = sign(null, Buffer.from(text), key.privateKey);
  return `${text}\n\u2014 ${key.name} ${Buffer.concat([key.id, signature]).toString('base64')}\n`;
}

/**
 * A signed note read and its signature checked against the verifier keys given (name and raw public key): the
 * checkpoint, or why not.
 */
export function openCheckpoint(
  note: string,
  keys: { name: string; publicKey: Buffer }[],
): { checkpoint: Checkpoint } | { error: string } {
  const split = note.indexOf('\n\n');
  if (split < 0) return { error: 'not a signed note: no empty line before the signature' };
  const text = note.slice(0, split + 1);
  const lines = text.split('\n');
  const [origin, size, hash64] = lines;
  if (lines.length !== 4 || origin === undefined || !/^[0-9]+$/.test(size ?? '') || hash64 === undefined)
    return { error: 'not a checkpoint: origin, size and hash lines wanted' };
  const hash = Buffer.from(hash64, 'base64');
  if (hash.length !== 32 || hash.toString('base64') !== hash64)
    return { error: 'the hash line is not 32 bytes of base64' };
  for (const line of note.slice(split + 2).split('\n')) {
    const match = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (match === null) continue;
    const signed = Buffer.from(match[2]!, 'base64');
    for (const key of keys) {
      if (key.name !== match[1] || !keyIdOf(key.name, key.publicKey).equals(signed.subarray(0, 4))) continue;
      const publicKey = createPublicKey({
        key: Buffer.concat([SPKI_PREFIX, key.publicKey]),
        format: 'der',
        type: 'spki',
      });
      if (verify(null, Buffer.from(text), publicKey, signed.subarray(4)))
        return { checkpoint: { origin, size: Number(size), hash: hash.toString('hex') } };
      return { error: `the signature by ${key.name} does not verify` };
    }
  }
  return { error: 'no signature by a known checkpoint key' };
}
