import type { FastifyRequest } from 'fastify';

/** What the request presented: no credential, a Bearer key to check, or something unusable and why. */
export type Credential = { kind: 'none' } | { kind: 'bearer'; key: string } | { kind: 'unusable'; detail: string };

const EXPECTED = 'send the key as `Authorization: Bearer <key>`';

/** How many Authorization header lines the client sent: Node keeps only the first in `request.headers`. */
function authorizationCount(request: FastifyRequest): number {
  const raw = request.raw.rawHeaders;
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') n++; // no lower-cased copy of every name
  }
  return n;
}

/**
 * Reads the Authorization header. A credential in the wrong form is refused with a detail that shows the
 * expected one, so that nobody rotates a good key because it was sent as Basic auth or without `Bearer`.
 */
export function credentialOf(request: FastifyRequest): Credential {
  const header = request.headers.authorization;
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  // Two credentials are refused, never resolved by taking one: a proxy and the client may disagree on which.
  if (authorizationCount(request) > 1)
    return { kind: 'unusable', detail: `More than one Authorization header was sent; ${EXPECTED}, once.` };
  const bearer = /^Bearer +(\S+) *$/i.exec(header);
  if (bearer) return { kind: 'bearer', key: bearer[1]! };
  const scheme = /^(\S+) +\S/.exec(header.trim())?.[1];
  if (scheme === undefined) {
    const bare = /^(sk_|whsec_)/.test(header.trim());
    return {
      kind: 'unusable',
      detail: `${bare ? 'The key was sent without a scheme' : 'No key was sent'}; ${EXPECTED}.`,
    };
  }
  if (/^bearer$/i.test(scheme))
    return { kind: 'unusable', detail: `The Bearer credential has extra parts; ${EXPECTED}.` };
  return { kind: 'unusable', detail: `This API does not take the ${scheme.slice(0, 20)} scheme; ${EXPECTED}.` };
}
