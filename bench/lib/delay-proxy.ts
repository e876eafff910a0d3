/**
 * A TCP proxy in front of PostgreSQL that holds every chunk for a set time in each direction, in order: with a one-way
 * delay of D ms every round trip a server waits for costs 2·D ms more, and nothing else does. The round-trip probe
 * (bench/lib/round-trips.ts) reads from a request's latency how many times it waited for the database. Statements
 * that travel together (pipelined) share one delay, as they share one round trip on a real network.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface DelayProxy {
  port: number;
  /** The one-way delay from now on (change it only while no request runs). */
  setDelay(ms: number): void;
  close(): Promise<void>;
}

function pipe(from: Socket, to: Socket, delay: () => number): void {
  const queue: { due: number; chunk: Buffer }[] = [];
  let scheduled = false;
  let ended = false;
  const drain = () => {
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.due <= now) to.write(queue.shift()!.chunk);
    scheduled = queue.length > 0;
    if (scheduled) setTimeout(drain, queue[0]!.due - now);
    else if (ended) to.end();
  };
  from.on('data', (chunk: Buffer) => {
    const d = delay();
    if (d === 0 && queue.length === 0) {
      to.write(chunk);
      return;
    }
    queue.push({ due: Math.max(performance.now() + d, queue.at(-1)?.due ?? 0), chunk });
    if (!scheduled) {
      scheduled = true;
      setTimeout(drain, queue[0]!.due - performance.now());
    }
  });
  from.on('end', () => {
    ended = true;
    if (queue.length === 0) to.end();
  });
  from.on('error', () => to.destroy());
}

/** Listens on a free port of 127.0.0.1 and forwards each connection to `target` (a PostgreSQL URL's host and port). */
export async function delayProxy(target: { host: string; port: number }): Promise<DelayProxy> {
  let delayMs = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    pipe(client, upstream, () => delayMs);
    pipe(upstream, client, () => delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    setDelay: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
