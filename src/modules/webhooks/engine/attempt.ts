import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkTarget, type Resolved, type Resolver, TargetRefused } from '../../../platform/ssrf.ts';

export interface AttemptResult {
  /** The HTTP status, or null when none came (refused, unreachable, timed out). */
  status: number | null;
  durationMs: number;
  error: string | null;
  retryAfter: string | undefined;
}

export interface AttemptOptions {
  timeoutMs: number;
  resolve: Resolver;
  allowPrivate: boolean;
}

/** Connects to the address that was checked, not to whatever a second lookup would return (DNS rebinding). */
function pinned(target: Resolved): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/**
 * Sockets open at once to one destination (an origin at one checked address; the attempts in flight, at most
 * WEBHOOK_CONCURRENCY, bound them too), and destinations kept. An idle socket is closed after IDLE_SOCKET_MS, before
 * a receiver's own keep-alive timeout (5 s in Node) closes it under a request.
 */
const SOCKETS_PER_DESTINATION = 64;
const DESTINATIONS_KEPT = 256;
const IDLE_SOCKET_MS = 4000;
const agents = new Map<string, http.Agent>();

/**
 * A keep-alive agent per destination: the origin and the address its check resolved to, so that a pooled socket
 * only ever carries a request to the address that request's own check allowed. At most DESTINATIONS_KEPT agents;
 * the one used least recently is closed first.
 */
function agentFor(url: URL, target: Resolved): http.Agent {
  const key = `${url.origin} ${target.address}`;
  let agent = agents.get(key);
  if (agent !== undefined)
    agents.delete(key); // re-inserted last: the map stays in order of use
  else {
    const options = {
      keepAlive: true,
      maxSockets: SOCKETS_PER_DESTINATION,
      maxFreeSockets: SOCKETS_PER_DESTINATION,
      timeout: IDLE_SOCKET_MS,
    };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    if (agents.size >= DESTINATIONS_KEPT) {
      const [oldest, old] = agents.entries().next().value!;
      agents.delete(oldest);
      old.destroy();
    }
  }
  agents.set(key, agent);
  return agent;
}

/** A receiver's answer is read to its end only up to this many bytes: we need the status, not its essay. */
const MAX_RESPONSE_BYTES = 64 * 1024;

function post(url: URL, target: Resolved, headers: Record<string, string>, body: string, timeoutMs: number) {
  return new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    // The URL's parts as plain options rather than the URL itself: Node would first copy a URL into a null-prototype
    // object (urlToHttpOptions), and the request and its agent copy every property of that again, all on V8's slow
    // path (bench/FINDINGS.md, issue 44). An endpoint's URL carries no credentials (endpoints.service.ts refuses
    // them), so there is no `auth` to pass on.
    const options: http.RequestOptions = {
      protocol: url.protocol,
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinned(target),
      agent: agentFor(url, target),
    };
    if (url.port !== '') options.port = Number(url.port);
    const request = client.request(options);
    const timer = setTimeout(() => request.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    // A reused socket does not reconnect, so its lookup is never asked again: it was connected to this same address.
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // A redirect is an answer like any other non-2xx: it is never followed (it could point anywhere).
    request.on('response', (response) => {
      let read = 0;
      const done = () => {
        clearTimeout(timer);
        const retryAfter = response.headers['retry-after'];
        resolve({ status: response.statusCode ?? 0, retryAfter });
      };
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) {
          response.destroy();
          done();
        }
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}

/** The attempt's timeout covers the name lookup too: a resolver that never answers must not hold a worker. */
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms resolving the host`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** One delivery attempt: check the target again (it may resolve elsewhere now), POST, and report what happened. */
export async function attempt(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const url = new URL(rawUrl);
    const target = await withTimeout(checkTarget(url, options.resolve, options.allowPrivate), options.timeoutMs);
    const left = Math.max(1, options.timeoutMs - elapsed());
    const { status, retryAfter } = await post(url, target, headers, body, left);
    return { status, durationMs: elapsed(), error: null, retryAfter };
  } catch (error) {
    const message = error instanceof TargetRefused ? `refused: ${error.message}` : (error as Error).message;
    return { status: null, durationMs: elapsed(), error: message.slice(0, 200), retryAfter: undefined };
  }
}
