import { createHash } from 'node:crypto';
import type { QueryResult } from 'kysely';
import type pg from 'pg';

/** One statement as node-postgres takes it; `name` makes it a prepared statement, parsed once per connection. */
export interface PgStatement {
  text: string;
  values: unknown[];
  name?: string;
}

/** A statement's server-side name: the same SQL gets the same name, on every connection. */
export function statementName(text: string): string {
  return `p_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
}

/**
 * The SQL of every statement compiled once (db/prepared.ts), with the name reads on the pool run it by: a bounded set,
 * known at start-up. None for one with a `*` (a `select *`; a `count(*)` too, for simplicity): PostgreSQL fixes a
 * named statement's columns when it parses it, and refuses to run it again ("cached plan must not change result
 * type") once a migration has added a column to its table, which a rolling deploy does while this process still
 * serves (docs/deploy.md).
 */
const compiledOnce = new Map<string, string | null>();
const READS_STAR = /\*/;

/**
 * The name a statement compiled once runs by, in a write and on the pool (`namedIfCompiledOnce`): its `statementName`,
 * or undefined for one with a `*`, which runs unnamed everywhere.
 */
export function compiledStatementName(text: string): string | undefined {
  if (!compiledOnce.has(text)) compiledOnce.set(text, READS_STAR.test(text) ? null : statementName(text));
  return compiledOnce.get(text) ?? undefined;
}

/**
 * A query as Kysely sends it on the pool (SQL and values): by its name when it is a statement compiled once, so that
 * PostgreSQL parses and plans it once per connection rather than at every run (an unnamed statement is parsed and
 * planned each time: 105–215 µs of the backend's CPU for the delivery process's look for due work, in a statement
 * log).
 * Any other query (built per call: a list's filters) stays unnamed: naming it would keep a statement per shape.
 */
export function namedIfCompiledOnce(text: string, values: unknown[] | undefined): PgStatement {
  const name = compiledOnce.get(text);
  return name == null ? { text, values: values ?? [] } : { name, text, values: values ?? [] };
}

/**
 * One write transaction on one pooled connection in pipeline mode (node-postgres `pipeline: true`): every statement
 * goes on the wire the moment it is issued, without waiting for the answers of those before it, and PostgreSQL runs
 * them in order. A write therefore costs one round trip per point where it must read an answer before it can go on,
 * plus the COMMIT's:
 *
 * - `send` issues a statement whose answer the write does not need (an insert, an update); if it fails, the
 *   transaction is aborted, everything after it fails too, and the write fails at its next `query` or at COMMIT with
 *   that first error.
 * - `query` issues a statement and answers with its result: the round trip the write waits for.
 * - `beforeCommit` holds statements to send right before COMMIT, after everything else the work issued: the events'
 *   ordering key is drawn there, so that it follows every read and lock of the write (see events/emit.ts).
 * - `afterCommit` runs once the COMMIT is acknowledged (a wake-up for the event sequencer).
 */
export interface PgWrite {
  /** Statements issued so far that change rows (inserts, updates, deletes; not a select that locks). */
  readonly writes: number;
  send(statement: PgStatement): void;
  query<R>(statement: PgStatement): Promise<QueryResult<R>>;
  beforeCommit(issue: () => void): void;
  afterCommit(run: () => void): void;
}

export interface PgWriteControl extends PgWrite {
  /** `query` with node-postgres' own result, for Kysely's driver (ad hoc queries on the transaction). */
  raw(statement: PgStatement): Promise<pg.QueryResult>;
  /** Sends what waits for the commit, then COMMIT; resolves once it is durable, or rejects with the first error. */
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Round trips the write has waited for so far (the COMMIT's included once committed). */
  readonly trips: number;
  /** Statements the write has sent so far, its BEGIN and COMMIT included. */
  readonly statements: number;
  /** A statement failed: the transaction cannot commit. */
  readonly failed: boolean;
}

/** A statement that changes rows (what `writes` counts, and what has an affected-row count). */
export const CHANGES_ROWS = /^\s*(with\b[\s\S]*\b)?(insert|update|delete|merge)\b/i;

const toResult = <R>(result: pg.QueryResult): QueryResult<R> => ({
  rows: result.rows as R[],
  numAffectedRows: result.rowCount === null ? undefined : BigInt(result.rowCount),
});

/** The socket under a node-postgres client (not in its types), to cork; undefined if this pg has none. */
function socketOf(client: pg.PoolClient): { cork(): void; uncork(): void } | undefined {
  const stream = (client as unknown as { connection?: { stream?: { cork?: unknown; uncork?: unknown } } }).connection
    ?.stream;
  return typeof stream?.cork === 'function' && typeof stream.uncork === 'function'
    ? (stream as { cork(): void; uncork(): void })
    : undefined;
}

/**
 * Holds what a write issues in one turn of the event loop in the socket's buffer, and writes it with one system call
 * when the turn's promise jobs have run. Pipeline mode writes each statement as it is issued, one `writev` each: ten
 * per create, sixteen per transfer, about a sixth of the server's CPU in a create's profile (bench/FINDINGS.md).
 * PostgreSQL receives the same messages in the same order, in fewer packets; nothing waits past the turn that issued
 * it.
 */
function corker(client: pg.PoolClient): () => void {
  const socket = socketOf(client);
  if (socket === undefined) return () => {};
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  // A tick queued from a promise job runs once the job queue is empty: after every statement this turn issues.
  const afterTurn = () => process.nextTick(uncork);
  return () => {
    if (corked) return;
    corked = true;
    socket.cork();
    queueMicrotask(afterTurn);
  };
}

export function beginPgWrite(client: pg.PoolClient): PgWriteControl {
  let firstError: unknown;
  let failed = false;
  let trips = 0;
  let writes = 0;
  let statements = 0;
  const cork = corker(client);
  // Answers not yet read: a new awaited statement shares the round trip of those still on their way.
  let waiting = 0;
  const sent: Promise<unknown>[] = [];
  const committing: (() => void)[] = [];
  const committed: (() => void)[] = [];

  const issue = (statement: PgStatement): Promise<pg.QueryResult> => {
    statements++;
    cork();
    const result = client.query(statement).catch((error: unknown) => {
      if (!failed) {
        failed = true;
        firstError = error;
      }
      throw error;
    });
    return result;
  };
  const send = (statement: PgStatement) => {
    if (CHANGES_ROWS.test(statement.text)) writes++;
    sent.push(issue(statement).catch(() => undefined));
  };
  sent.push(issue({ text: 'begin', values: [] }).catch(() => undefined));

  async function raw(statement: PgStatement): Promise<pg.QueryResult> {
    if (CHANGES_ROWS.test(statement.text)) writes++;
    if (waiting === 0) trips++;
    waiting++;
    try {
      return await issue(statement);
    } catch (error) {
      // A statement after a failed one fails with "current transaction is aborted": the first error says why.
      throw failed ? firstError : error;
    } finally {
      waiting--;
    }
  }
  const query = async <R>(statement: PgStatement): Promise<QueryResult<R>> => toResult<R>(await raw(statement));

  return {
    send,
    query,
    raw,
    beforeCommit: (run) => committing.push(run),
    afterCommit: (run) => committed.push(run),
    async commit() {
      for (const run of committing.splice(0)) run();
      const done = query<never>({ text: 'commit', values: [] });
      await Promise.all(sent);
      await done.catch((error: unknown) => {
        throw failed ? firstError : error;
      });
      // PostgreSQL answers COMMIT of an aborted transaction with ROLLBACK, not an error.
      if (failed) throw firstError;
      for (const run of committed) run();
    },
    async rollback() {
      await client.query('rollback').catch(() => undefined); // a broken connection has rolled back already
    },
    get trips() {
      return trips;
    },
    get statements() {
      return statements;
    },
    get writes() {
      return writes;
    },
    get failed() {
      return failed;
    },
  };
}
