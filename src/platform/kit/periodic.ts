import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `pass` every `intervalMs` until stopped, never two passes at once (a tick that finds one running is skipped).
 * A pass returns how many rows it handled, logged when above 0; one that throws is logged and tried at the next tick.
 * The returned stop() clears the timer and resolves once a pass in progress has ended, so that what the pass writes
 * to (the database) can close after it: the retention purges and the pending-transfer expiry sweep use it.
 */
export function runEvery(
  intervalMs: number,
  what: string,
  log: FastifyBaseLogger,
  pass: () => Promise<number>,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const once = async () => {
    try {
      const rows = await pass();
      if (rows > 0) log.info({ rows }, `${what}: ${rows} rows`);
    } catch (error) {
      log.warn({ err: error }, `${what} failed; will retry`);
    }
  };
  const timer = setInterval(() => {
    running ??= once().finally(() => {
      running = null;
    });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
