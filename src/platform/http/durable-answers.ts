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
    /** Answered by a read operation: it shows only what it read on the read handle (`Database.readsSettled`). */
    answeredFromReads: boolean;
  }
}

/** Called by the write path: this request's answer comes from a durable commit and need not wait for later ones. */
export function answeredByDurableWrite(request: FastifyRequest): void {
  request.answeredByWrite = true;
}

/**
 * Called for a read operation (operations/register.ts), which reads only on the read handle: on SQLite that shows only
 * durable commits (db/sqlite/durable-reads.ts), so its answer waits only if a read found no durable snapshot to run on.
 */
export function answeredFromReads(request: FastifyRequest): void {
  request.answeredFromReads = true;
}

/**
 * Called by the routes that show request-log entries (`GET /v1/requests…`, the dashboard's request pages): their
 * answer waits for the request log's own batches too, which every other answer leaves to their sync.
 */
export function answerShowsRequestLog(request: FastifyRequest): void {
  request.showsRequestLog = true;
}

/**
 * No answer shows what a power loss could take back. On SQLite a commit is visible to the writer, and to a reader
 * reading the newest state, a moment before its sync finishes (db/sqlite/wal-sync.ts,
 * docs/internals.md#durable-commits-off-the-event-loop).
 *
 * - A read operation's answer (`answeredFromReads`) shows what its reads found on durable snapshots
 *   (db/sqlite/durable-reads.ts): it waits for nothing, unless a read found no snapshot free and read the newest
 *   state; then it waits for what that state held (`Database.readsSettled`).
 * - Any other answer not released by its own durable write (a refusal, a page of the dashboard) waits, without
 *   blocking the event loop, until every commit made before it was sent is durable: nothing is waiting in the common
 *   case, and then it pays one comparison (`settled()`: the last commit against the last durable one); the answers
 *   that arrive during one sync share its promise (wal-sync.ts).
 *
 * A commit that wrote request-log entries alone holds back only the answers that show the log
 * (`answerShowsRequestLog`): no other answer shows an entry, so a read is not held back by the batch that records the
 * reads before it.
 */
export function installDurableAnswers(app: FastifyInstance, database: Database): void {
  app.decorateRequest('answeredByWrite', false);
  app.decorateRequest('showsRequestLog', false);
  app.decorateRequest('answeredFromReads', false);
  app.addHook('onSend', (request, reply, payload, done) => {
    const wait = request.answeredByWrite
      ? undefined
      : request.answeredFromReads
        ? database.readsSettled(request.showsRequestLog)
        : database.settled(request.showsRequestLog);
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
