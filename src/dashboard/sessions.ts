import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import type { Principal } from '../platform/auth/principal.ts';
import { type Clock, storedTime } from '../platform/kit/time.ts';
import * as repo from './sessions.repository.ts';

/**
 * Dashboard sessions (docs/dashboard.md#sessions). The browser holds an opaque random id (256 bits) in a cookie; the
 * database holds its SHA-256 with the key id, org, mode and expiry. The CSRF token is derived from the id (an HMAC
 * keyed by it), so only a holder of the cookie can compute it and nothing more is stored. The API key that signed in is
 * checked and forgotten: it is in no cookie, no page and no row.
 */

/** Over plain HTTP (local development). */
const PLAIN = 'plinth_session';
/**
 * Over https: `__Host-` makes the browser refuse the cookie unless it is Secure, host-only and `Path=/`, so that no
 * sibling subdomain can plant or shadow it. The prefix requires `Path=/` (RFC 6265bis §4.1.3.2): a `__Host-`
 * cookie with `Path=/dashboard` is dropped by every browser, so over https the path is `/`, and the API, which
 * reads only `Authorization`, ignores the cookie.
 */
const HOST = '__Host-plinth_session';

/** A live session as stored; whom it acts for is its key's principal, which each request verifies again. */
export interface Session {
  idHash: string;
  keyId: string;
  orgId: string;
  mode: Principal['mode'];
  csrf: string;
  expiresAt: string;
}

/** Whether the request arrived over TLS, or through a trusted proxy (TRUST_PROXY) that says it did. */
export const overHttps = (request: FastifyRequest): boolean => request.protocol === 'https';

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');
const csrfOf = (id: string) => createHmac('sha256', id).update('plinth dashboard csrf').digest('base64url');

/** The session id the browser sent, from the cookie of this transport only. */
export function sessionIdOf(request: FastifyRequest): string | undefined {
  const name = overHttps(request) ? HOST : PLAIN;
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) {
      const id = value.join('=');
      return /^[A-Za-z0-9_-]{43}$/.test(id) ? id : undefined;
    }
  }
  return undefined;
}

/** The Set-Cookie value that holds `id` for `maxAgeSeconds`, or (id null) removes the cookie. */
export function sessionCookie(request: FastifyRequest, id: string | null, maxAgeSeconds = 0): string {
  const https = overHttps(request);
  const parts = [
    `${https ? HOST : PLAIN}=${id ?? ''}`,
    `Path=${https ? '/' : '/dashboard'}`,
    `Max-Age=${id === null ? 0 : maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (https) parts.push('Secure');
  return parts.join('; ');
}

export interface SessionStore {
  /** A new session for a verified principal: the id to set in the cookie, and how long it lives. */
  open(principal: Principal): Promise<{ id: string; maxAgeSeconds: number }>;
  /** The live (unexpired) session of this id, its key not yet checked. */
  find(id: string): Promise<Session | undefined>;
  end(idHash: string): Promise<void>;
}

export function sessionStore(database: Database, clock: Clock, hours: number): SessionStore {
  return {
    async open(principal) {
      const id = randomBytes(32).toString('base64url');
      const now = clock();
      const expires = new Date(now.getTime() + hours * 3_600_000);
      await database.write((trx) =>
        repo.insertSession(trx, {
          id_hash: hashOf(id),
          key_id: principal.keyId,
          org_id: principal.orgId,
          mode: principal.mode,
          created_at: storedTime(now),
          expires_at: storedTime(expires),
        }),
      );
      return { id, maxAgeSeconds: hours * 3600 };
    },
    async find(id) {
      const row = await repo.findSession(database.db, hashOf(id), storedTime(clock()));
      if (row === undefined) return undefined;
      const { id_hash: idHash, key_id: keyId, org_id: orgId, mode, expires_at: expiresAt } = row;
      return { idHash, keyId, orgId, mode, csrf: csrfOf(id), expiresAt };
    },
    end: (idHash) => database.write((trx) => repo.deleteSession(trx, idHash)),
  };
}

/** The form's token equals the session's, compared in constant time. */
export function csrfMatches(session: Session, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * A state-changing request must come from a page of this origin: its `Origin` is this server's scheme and host.
 * Browsers send `Origin` on every POST (the pages' `Referrer-Policy: same-origin` keeps it); none at all is refused.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  return request.headers.origin === `${request.protocol}://${request.host}`;
}
