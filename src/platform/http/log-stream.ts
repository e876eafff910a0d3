import { write } from 'node:fs';

export interface StdoutLog {
  /** What pino writes its lines to. */
  stream: { write(line: string): boolean };
  /** Writes what is queued, waiting at most `maxWaitMs`: a reader that never drains must not hold the exit. */
  flush(maxWaitMs?: number): Promise<void>;
  /** Lines given up on so far (the reader was gone, stuck, or too far behind); /metrics shows the count. */
  dropped(): number;
}

/** Unwritten lines kept while a write is in flight or the reader is slow; past this, new lines are dropped. */
const MAX_QUEUED_CHARS = 1024 * 1024;
const RETRY_EAGAIN_MS = 100;

/**
 * Where the JSON log goes by default: a file descriptor (stdout), written asynchronously, the lines that arrive
 * while a write is in flight coalesced into the next one, so a slow stdout never stalls the event loop.
 *
 * A log destination must never stop the server from serving or from shutting down, so nothing here blocks, retries
 * for ever or runs at exit (pino's own destination retried a broken pipe every 100 ms, synchronously, in its exit
 * handler: a SIGTERM after stdout's reader was gone never ended, issue 23). Instead:
 * - EAGAIN (the reader is alive but not reading): retried for `maxBlockedMs`, then that chunk is dropped; later
 *   chunks get one try each, and are dropped at once while the reader stays stuck, until one write gets through.
 * - any other error (EPIPE: the reader exited; EBADF, EIO): the destination is gone for good; every line from then
 *   on is dropped without a system call.
 * - more than 1 Mi characters queued: new lines are dropped.
 * Every dropped line is counted.
 */
export function fdLog(fd = 1, maxBlockedMs = 1000): StdoutLog {
  let queue: string[] = [];
  let queuedChars = 0;
  let writing = false;
  let broken = false;
  let blockedSince: number | null = null;
  let dropped = 0;
  let idle: Array<() => void> = [];

  function next(): void {
    if (queue.length === 0 || broken) {
      writing = false;
      for (const resolve of idle) resolve();
      idle = [];
      return;
    }
    writing = true;
    const lines = queue.length;
    const chunk = Buffer.from(queue.join(''));
    queue = [];
    queuedChars = 0;
    attempt(chunk, lines);
  }

  function attempt(chunk: Buffer, lines: number): void {
    write(fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error === null) {
        blockedSince = null;
        if (written < chunk.length) return attempt(chunk.subarray(written), lines);
        return next();
      }
      if (error.code === 'EAGAIN') {
        blockedSince ??= Date.now();
        if (Date.now() - blockedSince < maxBlockedMs) {
          setTimeout(() => attempt(chunk, lines), RETRY_EAGAIN_MS).unref();
          return;
        }
      } else {
        broken = true;
        dropped += queue.length;
        queue = [];
        queuedChars = 0;
      }
      dropped += lines;
      next();
    });
  }

  const stream = {
    write(line: string): boolean {
      if (broken || queuedChars + line.length > MAX_QUEUED_CHARS) {
        dropped++;
        return true;
      }
      queue.push(line);
      queuedChars += line.length;
      if (!writing) next();
      return true;
    },
  };
  const flush = (maxWaitMs = 1000) =>
    new Promise<void>((resolve) => {
      if (!writing) return resolve();
      setTimeout(resolve, maxWaitMs).unref();
      idle.push(resolve);
    });
  return { stream, flush, dropped: () => dropped };
}

/**
 * The log on stdout. Node puts a pipe or socket stdout in non-blocking mode when `process.stdout` is first used
 * (libuv opens it so), and this relies on it: a blocking write to a pipe that nobody reads would hold a threadpool
 * thread, and with it the process's exit, for ever; a non-blocking one fails with EAGAIN, handled above.
 */
export function stdoutLog(maxBlockedMs?: number): StdoutLog {
  return fdLog(process.stdout.fd ?? 1, maxBlockedMs);
}
