import pino, { type DestinationStream } from 'pino';

/**
 * Where the JSON log goes by default: stdout, written synchronously (no line is lost at exit), but never allowed
 * to block the process for good. Node makes a pipe or socket stdout non-blocking, so when nobody reads it (a
 * parent that stopped reading, as spawnSync does past its maxBuffer) every write gets EAGAIN, and pino's writer
 * retries forever, sleeping in Atomics.wait on the main thread: no timer, no signal handler, no exit ever ran.
 * Here a write that has been refused for `maxBlockedMs` is given up, and later ones are dropped at once until
 * the reader catches up; the buffer of unwritten lines is bounded too.
 */
export function stdoutLog(maxBlockedMs = 1000): DestinationStream {
  let blockedSince: number | null = null;
  const stream = pino.destination({
    fd: 1,
    sync: true,
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
  return stream;
}
