import { hash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

import type { Mode } from './principal.ts';

/**
 * API key format: `sk_test_`|`sk_live_` (a full key) or `rk_test_`|`rk_live_` (a restricted one), 32 random base62
 * characters, 6 base62 CRC-32 characters.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MODE_PART: Record<Mode, string> = { sandbox: 'test_', live: 'live_' };
const RANDOM_CHARS = 32; // 32 × log2(62) ≈ 190.5 bits
const CHECKSUM_CHARS = 6; // 62^6 > 2^32
const KEY_PATTERN = /^[sr]k_(test|live)_[0-9A-Za-z]{38}$/;

export function checksum(body: string): string {
  let n = crc32(Buffer.from(body, 'utf8'));
  let out = '';
  while (n > 0) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(CHECKSUM_CHARS, '0');
}

export function generateKey(mode: Mode, restricted = false): string {
  let body = (restricted ? 'rk_' : 'sk_') + MODE_PART[mode];
  // randomInt draws without modulo bias, so every character carries the full log2(62) bits.
  for (let i = 0; i < RANDOM_CHARS; i++) body += BASE62[randomInt(62)];
  return body + checksum(body);
}

/** The key's mode when it is well formed and its checksum matches; null otherwise. Never touches storage. */
export function parseKey(key: string): Mode | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const body = key.slice(0, -CHECKSUM_CHARS);
  if (checksum(body) !== key.slice(-CHECKSUM_CHARS)) return null;
  return match[1] === 'live' ? 'live' : 'sandbox';
}

/** What is stored at rest: SHA-256 of the full key, hex. The key itself is never stored. */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Display hint: the mode prefix and the last four characters, e.g. `sk_test_…a1B2`. */
export function keyHint(key: string): string {
  return `${key.slice(0, 8)}…${key.slice(-4)}`;
}
