import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { UNLIMITED } from '../helpers/server.ts';

/**
 * Load for the campaigns (issue 11): abusive sockets and a well-behaved client. Everything targets the URL it
 * is given, which the campaigns only ever build from a server they started on 127.0.0.1; every loop is bounded
 * by a count, and every socket and timer is closed by `close()`.
 */

/**
 * Environment for a campaign's server process: limits lifted (the rate-limit tests cover them) and a secrets key,
 * which PostgreSQL mode requires (README.md#secrets-at-rest; SQLite mode would generate one beside the database).
 */
export const CAMPAIGN_ENV = { ...UNLIMITED, SECRETS_KEY: randomBytes(32).toString('base64') };

export type SlowKind = 'idle' | 'slow-headers' | 'slow-body';

export interface SlowSockets {
  /** Sockets still open (the server may close some, which is its right). */
  open(): number;
  close(): void;
}

const HEAD = (host: string) =>
  `POST /v1/sandbox/signup HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n`;

/**
 * `count` sockets of each kind: idle ones never send a byte; slow-header ones send an unfinished request head and
 * then one header line per tick; slow-body ones announce a 64 KiB body and send one byte of it per tick.
 */
export async function openSlowSockets(url: string, count: number, kinds: SlowKind[], tickMs = 250) {
  const { hostname, port } = new URL(url);
  const sockets: { socket: Socket; kind: SlowKind }[] = [];
  for (const kind of kinds) {
    for (let i = 0; i < count; i++) {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => socket.destroy());
      await new Promise<void>((resolve) => {
        socket.once('connect', resolve);
        socket.once('close', () => resolve());
      });
      if (kind === 'slow-headers') socket.write(HEAD(hostname));
      if (kind === 'slow-body') socket.write(`${HEAD(hostname)}Content-Length: 65536\r\n\r\n{"name":"`);
      sockets.push({ socket, kind });
    }
  }
  let tick = 0;
  const timer = setInterval(() => {
    tick++;
    for (const { socket, kind } of sockets) {
      if (socket.destroyed) continue;
      if (kind === 'slow-headers') socket.write(`X-Trickle-${tick}: 1\r\n`);
      if (kind === 'slow-body') socket.write('a');
    }
  }, tickMs);
  return {
    open: () => sockets.filter((s) => !s.socket.destroyed).length,
    close() {
      clearInterval(timer);
      for (const { socket } of sockets) socket.destroy();
    },
  } satisfies SlowSockets;
}

export interface Sample {
  status: number;
  ms: number;
}

/** A well-behaved client: `n` requests one after another (a list, then a create, and so on). */
export async function normalClient(url: string, key: string, n: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const response =
      i % 2 === 0
        ? await fetch(`${url}/v1/fintech/accounts?limit=5`, { headers })
        : await fetch(`${url}/v1/fintech/accounts`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ type: 'business', country: 'US' }),
          });
    await response.arrayBuffer();
    samples.push({ status: response.status, ms: performance.now() - started });
  }
  return samples;
}

/**
 * `n` connections opened at once, each sending one request and reading the status line of its answer.
 * Returns the count of answers by status, with 0 for a connection that got no answer within `timeoutMs`.
 */
export async function connectionStorm(url: string, key: string, n: number, timeoutMs = 60_000) {
  const { hostname, port } = new URL(url);
  const requestFor = (i: number) =>
    i % 2 === 0
      ? `GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`
      : `GET /v1/fintech/accounts?limit=1 HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${key}\r\n` +
        'Connection: close\r\n\r\n';
  const one = (i: number) =>
    new Promise<number>((resolve) => {
      const socket = connect(Number(port), hostname, () => socket.write(requestFor(i)));
      let head = '';
      socket.setTimeout(timeoutMs, () => socket.destroy());
      socket.on('data', (chunk: Buffer) => {
        head += chunk.toString('latin1');
        const match = /^HTTP\/1\.1 (\d{3})/.exec(head);
        if (match) {
          resolve(Number(match[1]));
          socket.destroy();
        }
      });
      socket.on('error', () => socket.destroy());
      socket.on('close', () => resolve(0));
    });
  const statuses = await Promise.all(Array.from({ length: n }, (_, i) => one(i)));
  const byStatus = new Map<number, number>();
  for (const s of statuses) byStatus.set(s, (byStatus.get(s) ?? 0) + 1);
  return byStatus;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
