import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { requestId } from './access-log.ts';
import { ApiError, toProblem } from './errors.ts';
import { MAX_HEADER_BYTES } from './server-options.ts';

// Answers written straight to a socket, for the errors Node's HTTP parser raises before Fastify sees a request.

/** Node's parser and timeout errors in the terms of docs/api.md#the-wire. */
function toClientApiError(error: NodeJS.ErrnoException): ApiError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new ApiError('request_timeout', 'The request did not arrive in time; send it again, without pausing.');
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return new ApiError('headers_too_large', `The request headers are over ${MAX_HEADER_BYTES / 1024} KiB.`);
  return new ApiError(
    'request_malformed',
    'This is not a valid HTTP/1.1 request (request line, method, or Content-Length/Transfer-Encoding).',
  );
}

/** Headers of a problem sent outside Fastify: the same ones its replies carry, and the connection closed. */
export function problemHeaders(requestId: string, body: string): Record<string, string> {
  return {
    'request-id': requestId,
    'content-type': 'application/problem+json',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
}

/** A complete HTTP response in bytes, for a socket that has no ServerResponse to write through. */
function rawProblem(error: ApiError, requestId: string): string {
  const body = JSON.stringify(toProblem(error, requestId));
  const headers = Object.entries(problemHeaders(requestId, body)).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${error.status} ${error.code.replace(/_/g, ' ')}\r\n${headers.join('')}\r\n${body}`;
}

type HttpSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * The response still owed on this socket to a request that arrived whole (a pipelined request being handled):
 * it must go out before the error, so that a client is never told "400" about a request that succeeded.
 */
function owedResponse(socket: HttpSocket, error: NodeJS.ErrnoException): ServerResponse | null {
  const pending = socket._httpMessage;
  if (!pending || pending.writableFinished || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return null;
  return (pending as ServerResponse & { req?: IncomingMessage }).req?.complete ? pending : null;
}

// Sockets already answered: Node may report a second parser error for bytes that follow the first.
const answered = new WeakSet<Socket>();

function answer(log: FastifyBaseLogger, error: NodeJS.ErrnoException, socket: Socket): void {
  if (socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  const apiError = toClientApiError(error);
  const id = requestId();
  log.info({ request_id: id, status: apiError.status, code: apiError.code, cause: error.code }, 'request');
  if (socket.writable) socket.end(rawProblem(apiError, id));
  setTimeout(() => socket.destroy(), 1000).unref();
}

/**
 * Fastify's `clientErrorHandler`: errors Node raises before any route runs get an RFC 9457 body with a Request-Id
 * and the connection is closed. A few bytes may still be on their way from the client, so the socket is ended
 * (FIN) rather than reset, and destroyed shortly after in case the client never closes its side.
 */
export function handleClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const owed = owedResponse(socket, error);
  if (owed === null) answer(this.log, error, socket);
  else owed.once('finish', () => answer(this.log, error, socket)).once('close', () => answer(this.log, error, socket));
}
