import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

/** Once shutdown begins, a request on a kept-alive connection is answered 503 and the connection closed. */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (closing) {
      reply.header('connection', 'close');
      throw new ApiError('service_unavailable', 'The server is shutting down; retry.');
    }
    done();
  });
  // A request in flight when shutdown began gets its answer, and then its connection closes: a kept-alive one
  // left idle would otherwise hold the shutdown until the grace period forced it (found by the shutdown campaign).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // An answer whose onSend ran just before shutdown began left without that header; once it is sent, its connection
  // would sit idle, after the listener's one sweep of idle connections, until the grace period forced it closed.
  app.addHook('onResponse', (request, reply, done) => {
    if (closing && reply.getHeader('connection') !== 'close') request.raw.socket?.end();
    done();
  });
}
