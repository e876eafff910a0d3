import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { requestId } from './access-log.ts';
import { ApiError, toProblem } from './errors.ts';
import { problemHeaders } from './raw-answers.ts';

/**
 * What Node would answer with an empty body: an `Expect` other than `100-continue` (417), and an HTTP/1.1
 * request without `Host` (400, RFC 9112 §3.2). Both close the connection.
 */
export function installHttpRefusals(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const id = requestId();
    const error = new ApiError('expectation_unsupported', 'Only `Expect: 100-continue` is supported; leave it out.', {
      param: 'Expect',
    });
    app.log.info({ request_id: id, status: error.status, code: error.code, method: request.method }, 'request');
    const body = JSON.stringify(toProblem(error, id));
    response.writeHead(error.status, problemHeaders(id, body)).end(body);
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (request.raw.httpVersion === '1.1' && request.raw.headers.host === undefined) {
      reply.header('connection', 'close');
      throw new ApiError('request_malformed', 'An HTTP/1.1 request must carry a Host header.', { param: 'Host' });
    }
    done();
  });
}
