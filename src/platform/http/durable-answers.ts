import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import { toProblem } from './errors.ts';
import { toApiError } from './problem.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Answered by its own write, which the write path released only once that write was durable. */
    answeredByWrite: boolean;
    /** Its answer may show request-log entries: it waits for the request log's own commits too. */
    showsRequestLog: boolean;
  }
}

/** Called by the write path: this request's answer comes from a durable commit and need not wait for later ones. */
export function answeredByDurableWrite(request: FastifyRequest): void {
  request.answeredByWrite = true;
}

/**
 * Called by the routes that show request-log entries (`GET /v1/requests…`, the dashboard's request pages): their
 * answer waits for the request log's own batches too, which every other answer leaves to their sync.
 */
export function answerShowsRequestLog(request: FastifyRequest): void {
  request.showsRequestLog = true;
}

/**
 * No answer shows what a power loss could take back. On SQLite a commit is visible to reads a moment before its
 * sync finishes (db/sqlite/wal-sync.ts, docs/internals.md#durable-commits-off-the-event-loop): any other answer — a
 * read, a refusal, a page — waits, without blocking the event loop, until every commit made before it was sent is
 * durable. Nothing is waiting in the common case, and then a read pays one comparison (`settled()`: the last commit
 * against the last durable one); the answers that arrive during one sync share its promise (wal-sync.ts). A commit
 * that wrote request-log entries alone holds back only the answers that show the log (`answerShowsRequestLog`): no
 * other answer shows an entry, so a read is not held back by the batch that records the reads before it.
 */
export function installDurableAnswers(app: FastifyInstance, database: Database): void {
  app.decorateRequest('answeredByWrite', false);
  app.decorateRequest('showsRequestLog', false);
  app.addHook('onSend', (request, reply, payload, done) => {
    const wait = request.answeredByWrite ? undefined : database.settled(request.showsRequestLog);
    if (wait === undefined) return done(null, payload);
    wait.then(
      () => done(null, payload),
      // The disk failed a sync: what this answer shows may be lost, so it becomes the 503 every write now gets.
      (error: Error) => {
        const refusal = toApiError(error);
        request.errorCode = refusal.code;
        reply.code(refusal.status).headers(refusal.headers).header('content-type', 'application/problem+json');
        done(null, JSON.stringify(toProblem(refusal, String(request.id))));
      },
    );
  });
}
