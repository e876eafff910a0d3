import { type ChildProcess, fork } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { AttemptReport } from './worker.ts';

/** A delivery process that dies is started again after this long (a crash loop costs one start per second). */
const RESTART_MS = 1000;
/** Pokes sent to the delivery processes at most this often; one sent in between waits for the end of the window. */
const POKE_EVERY_MS = 5;
const ENTRY = fileURLToPath(new URL('../../../deliver.ts', import.meta.url));

/** Messages between the API's processes and the delivery processes (node's IPC channel). */
export type DeliveryMessage =
  | { type: 'plinth.webhooks.poke' }
  /** The attempts a delivery process recorded since its last message (one message a round, not one an attempt). */
  | { type: 'plinth.webhooks.attempts'; reports: AttemptReport[] }
  | { type: 'plinth.webhooks.ready'; worker: number };

export interface DeliveryProcesses {
  /** A commit made deliveries due, or a retry was asked for: tell every delivery process to look now. */
  poke(): void;
  /** Ends them with SIGTERM (each finishes its attempts in flight within its grace), resolving when all exited. */
  stop(): Promise<void>;
}

/** Where a delivery process's log lines go: this process's own log stream, whole lines only. */
export type LineSink = (line: string) => void;

/** Passes `stream`'s output on to `sink` line by line (a line split across chunks is joined first). */
function relayLines(stream: Readable, sink: LineSink): void {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) sink(`${line}\n`);
  });
}

/**
 * Starts `count` delivery processes (`src/deliver.ts`) beside the API, each with an IPC channel to this process;
 * one that exits is started again. `onAttempts` hears the attempts they make, for this side's /metrics. Their stdout
 * is a pipe of their own, relayed into `log` (this process's log stream): inheriting this process's stdout would
 * make it blocking for both (libuv sets a child's stdio blocking, and the flag belongs to the shared file), and a
 * stdout nobody reads would then hang this process's log writes and its exit.
 */
export function startDeliveryProcesses(
  count: number,
  onAttempts: (reports: AttemptReport[]) => void,
  log: LineSink,
): DeliveryProcesses {
  const children = new Set<ChildProcess>();
  let stopping = false;
  const start = (worker: number) => {
    const child = fork(ENTRY, [], {
      env: { ...process.env, PLINTH_DELIVERY_WORKER: String(worker) },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    children.add(child);
    relayLines(child.stdout!, log);
    relayLines(child.stderr!, (line) => process.stderr.write(line));
    child.on('message', (message: DeliveryMessage) => {
      if (message?.type === 'plinth.webhooks.attempts') onAttempts(message.reports);
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
