import assert from 'node:assert/strict';
import type { ServerProcess } from './process.ts';

/** Requests before a kill close their connection, so that no pooled one leads to the worker about to die. */
export const CLOSE = { connection: 'close' };

/** Polls `check` until it returns something truthy (or throws after `ms`); phases advance on what is observed. */
export async function until<T>(check: () => Promise<T> | T, what: string, ms = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(`never saw ${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The pids of the workers whose log says they listen, in order. */
export function listeningPids(server: ServerProcess): number[] {
  return server.lines.filter((l) => l.includes('Server listening at')).map((l) => JSON.parse(l).pid as number);
}

/**
 * One sample of a metric without labels from /metrics (whichever worker answers), or undefined; also undefined when
 * no answer came within 10 s, which the polls wait past while checking that the supervisor lives. (A connection
 * that arrives as a worker is killed can be handed to the dead worker by node:cluster and never answered.)
 */
export async function metric(url: string, name: string): Promise<number | undefined> {
  const text = await fetch(`${url}/metrics`, { headers: CLOSE, signal: AbortSignal.timeout(10_000) }).then(
    (r) => r.text(),
    () => '',
  );
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

/** The pids of the requests' log lines from `from` on: which workers served. */
export function servingPids(server: ServerProcess, from: number): Set<number> {
  const entries = server.lines.slice(from).map((l) => JSON.parse(l));
  return new Set(entries.filter((l) => l.msg === 'request').map((l) => l.pid as number));
}
