import type { FastifyInstance } from 'fastify';

/** API requests in flight at which the process counts as busy and webhook deliveries yield to it. */
export const BUSY_IN_FLIGHT = 8;
/**
 * How long the process still counts as busy after it last had BUSY_IN_FLIGHT requests in flight. Under load the
 * count dips for a moment after every group commit (its answers have just left, the next requests are on their way),
 * and that is exactly when a commit wakes the delivery workers: without this, they took the dip for a quiet moment.
 */
export const BUSY_HOLD_MS = 250;

/** Whether BUSY_IN_FLIGHT or more requests (counted from arrival to the socket's close) were in flight just now. */
export function apiBusy(app: FastifyInstance): () => boolean {
  let inFlight = 0;
  let lastBusy = Number.NEGATIVE_INFINITY;
  const finished = () => {
    inFlight--;
  };
  app.addHook('onRequest', (_request, reply, done) => {
    if (++inFlight >= BUSY_IN_FLIGHT) lastBusy = performance.now();
    reply.raw.once('close', finished);
    done();
  });
  return () => inFlight >= BUSY_IN_FLIGHT || performance.now() - lastBusy < BUSY_HOLD_MS;
}
