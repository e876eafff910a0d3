import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RoundAnswer, RoundRequest, Rounds } from './rounds.ts';
import type { AttemptReport } from './worker.ts';

/** A delivery process that dies is started again after this long (a crash loop costs one start per second). */
const RESTART_MS = 1000;
/** Pokes sent to the delivery processes at most this often; one sent in between waits for the end of the window. */
const POKE_EVERY_MS = 5;
const ENTRY = fileURLToPath(new URL('../../deliver.ts', import.meta.url));

/** Messages between the API's processes and the delivery processes (node's IPC channel). */
export type DeliveryMessage =
  | { type: 'plinth.webhooks.poke' }
  | { type: 'plinth.webhooks.attempt'; report: AttemptReport }
  | { type: 'plinth.webhooks.ready'; worker: number }
  | { type: 'plinth.webhooks.round'; id: number; request: RoundRequest }
  | { type: 'plinth.webhooks.rounded'; id: number; answer?: RoundAnswer; error?: string };

export interface DeliveryProcesses {
  /** A commit made deliveries due, or a retry was asked for: tell every delivery process to look now. */
  poke(): void;
  /** Ends them with SIGTERM (each finishes its attempts in flight within its grace), resolving when all exited. */
  stop(): Promise<void>;
}

/**
 * Starts `count` delivery processes (`src/deliver.ts`) beside the API, each with an IPC channel to this process;
 * one that exits is started again. `onAttempt` hears each attempt they make, for this side's /metrics. `rounds`
 * (SQLite): each process's rounds run here, on this process's writer, and their answers go back (see deliver.ts).
 */
export function startDeliveryProcesses(
  count: number,
  onAttempt: (report: AttemptReport) => void,
  rounds?: () => Rounds,
): DeliveryProcesses {
  const children = new Set<ChildProcess>();
  let stopping = false;
  const start = (worker: number) => {
    const child = fork(ENTRY, [], { env: { ...process.env, PLINTH_DELIVERY_WORKER: String(worker) } });
    children.add(child);
    const round = rounds?.(); // a claimer of its own for each process: its cursor, its order of service
    child.on('message', (message: DeliveryMessage) => {
      if (message?.type === 'plinth.webhooks.attempt') onAttempt(message.report);
      if (message?.type !== 'plinth.webhooks.round' || round === undefined) return;
      const { id } = message;
      const reply = (answer: Omit<Extract<DeliveryMessage, { type: 'plinth.webhooks.rounded' }>, 'type' | 'id'>) =>
        child.connected && child.send({ type: 'plinth.webhooks.rounded', id, ...answer }, undefined, {}, () => {});
      round(message.request).then(
        (answer) => reply({ answer }),
        (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
      );
    });
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (stopping) return;
      process.stderr.write(`plinth: delivery process ${child.pid} exited (${signal ?? `code ${code}`}); restarting\n`);
      setTimeout(() => stopping || start(worker), RESTART_MS).unref();
    });
  };
  for (let i = 1; i <= count; i++) start(i);

  const poke = throttled(() => {
    const message: DeliveryMessage = { type: 'plinth.webhooks.poke' };
    for (const child of children) if (child.connected) child.send(message, undefined, {}, () => undefined);
  });
  return {
    poke,
    async stop() {
      stopping = true;
      const exits = [...children].map((child) => new Promise((resolve) => child.once('exit', resolve)));
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(exits);
    },
  };
}

/** `send` at most once per POKE_EVERY_MS: a call in between is sent at the end of the window (none is lost). */
export function throttled(send: () => void): () => void {
  let last = Number.NEGATIVE_INFINITY;
  let waiting: NodeJS.Timeout | undefined;
  const now = () => {
    waiting = undefined;
    last = performance.now();
    send();
  };
  return () => {
    if (waiting !== undefined) return;
    const wait = last + POKE_EVERY_MS - performance.now();
    if (wait <= 0) now();
    else waiting = setTimeout(now, wait);
  };
}

/** A delivery process's side of `rounds`: each round sent to its parent over the IPC channel, answered there. */
export function roundsOverIpc(): Rounds {
  let next = 0;
  const waiting = new Map<number, { resolve: (answer: RoundAnswer) => void; reject: (error: Error) => void }>();
  process.on('message', (message: DeliveryMessage) => {
    if (message?.type !== 'plinth.webhooks.rounded') return;
    const one = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.answer !== undefined) one?.resolve(message.answer);
    else one?.reject(new Error(`the server's write failed: ${message.error}`));
  });
  process.on('disconnect', () => {
    for (const one of waiting.values()) one.reject(new Error('the server is gone'));
    waiting.clear();
  });
  return (request) =>
    new Promise((resolve, reject) => {
      if (!process.connected) return reject(new Error('the server is gone'));
      const id = ++next;
      waiting.set(id, { resolve, reject });
      const message: DeliveryMessage = { type: 'plinth.webhooks.round', id, request };
      process.send!(message, undefined, {}, () => {});
    });
}
