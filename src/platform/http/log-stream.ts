import pino, { type DestinationStream } from 'pino';

export interface StdoutLog {
  stream: DestinationStream;
  /** Writes what is buffered, waiting at most `maxWaitMs`: a reader that never drains must not hold the exit. */
  flush(maxWaitMs?: number): Promise<void>;
}

/**
 * Where the JSON log goes by default: stdout, written asynchronously (queued and coalesced while a write is in
 * flight), so a slow stdout never stalls the event loop, and flushed at shutdown. Never allowed to block the
 * process for good either: Node makes a pipe or socket stdout non-blocking, so when nobody reads it (a parent
 * that stopped reading, as spawnSync does past its maxBuffer) every write gets EAGAIN, and pino's writer would
 * retry forever. Here a write that has been refused for `maxBlockedMs` is given up, and later ones are dropped at
 * once until the reader catches up; the buffer of unwritten lines is bounded too (1 MiB).
 */
export function stdoutLog(maxBlockedMs = 1000): StdoutLog {
  let blockedSince: number | null = null;
  const stream = pino.destination({
    fd: 1,
    sync: false,
    maxLength: 1024 * 1024,
    retryEAGAIN: () => {
      blockedSince ??= Date.now();
      return Date.now() - blockedSince < maxBlockedMs;
    },
  });
  // sonic-boom reports a retry after EAGAIN as a write of 0 bytes: only real progress ends a blockage.
  stream.on('write', (bytes: number) => {
    if (bytes > 0) blockedSince = null;
  });
  // EAGAIN once the budget is spent: the line is dropped (the reader is gone or stuck). Anything else, too:
  // a logger must not take the process down.
  stream.on('error', () => undefined);
  const flush = (maxWaitMs = 1000) =>
    new Promise<void>((resolve) => {
      setTimeout(resolve, maxWaitMs).unref();
      stream.flush(() => resolve());
    });
  return { stream, flush };
}
