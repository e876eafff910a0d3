import { Kysely, type KyselyConfig, type QueryResult } from 'kysely';
import type { Tables } from './tables.ts';

/** A statement compiled once (db/prepared.ts), as a transaction runs it: SQL, parameters, its prepared name. */
export interface CompiledStatement {
  sql: string;
  /** A name for it, the same for the same SQL: SQLite's cache of prepared statements is keyed by it. */
  name: string;
  /**
   * Its name as a PostgreSQL prepared statement, parsed once per connection; undefined for one whose columns a
   * migration can change (a `*`), which runs unnamed (db/postgres/pg-write.ts `compiledStatementName`).
   */
  pgName: string | undefined;
}

/**
 * The write transaction: the handle every write runs on, made only by `Database.write` (so the compiler refuses a
 * write on the read handle: a plain Kysely is not one of these). It is a Kysely instance, so any query can be built
 * and run on it, and what the two backends do differently inside a write is one of its methods, never a question
 * its caller asks:
 *
 * - `singleWriter`: SQLite runs one write at a time in one process (savepoints of one group commit), and writes commit
 *   in the order they ran. A number drawn in the write is its commit order, and what a read saw just before the write
 *   still holds inside it. PostgreSQL runs many writes at once, from many processes.
 * - Row locks: a select built with `.forNoKeyUpdate()`/`.forUpdate()`/`.skipLocked()` locks on PostgreSQL and is a
 *   plain read on SQLite (its dialect leaves the clause out: the single writer already holds every row);
 *   `preparedLock` statements (db/prepared.ts) are only sent where rows can be locked.
 * - Turns (`tryTurn`, `takeTurn`, `shareTurn`): one transaction at a time across processes for a name, or many sharing
 *   it while none has it whole (PostgreSQL's transaction advisory locks); on SQLite every write already has the turn.
 * - `beforeCommit`, `afterCommit`: work to issue right before the COMMIT, after everything else the write issued, and
 *   work to run once the commit is durable (never, if the write rolls back).
 * - `writeCount`: grows whenever the write changes rows, to tell whether a step wrote.
 */
export abstract class WriteTransaction extends Kysely<Tables> {
  abstract readonly singleWriter: boolean;
  abstract writeCount(): number;
  /** Takes the turn of `name` if no other transaction holds it; false when one does. */
  abstract tryTurn(name: string): Promise<boolean>;
  /** Waits for the turn of `name`: issued, not awaited; the write's next awaited statement runs once it has it. */
  abstract takeTurn(name: string): void;
  /**
   * Waits for a share of the turn of `name` (issued, not awaited): any number of transactions share it at once, and
   * none holds it while another holds the whole turn (`takeTurn`). A transaction holding a share must not then ask
   * for the whole turn (two doing so would deadlock).
   */
  abstract shareTurn(name: string): void;
  abstract beforeCommit(issue: () => void): void;
  abstract afterCommit(run: () => void): void;
  /** Runs a compiled-once statement and answers with its result (for db/prepared.ts). */
  abstract run<R>(statement: CompiledStatement, parameters: unknown[]): Promise<QueryResult<R>>;
  /** Issues a compiled-once statement whose answer the write does not need (for db/prepared.ts). */
  abstract send(statement: CompiledStatement, parameters: unknown[]): void;
  /** Issues a statement that only locks rows: sent on PostgreSQL, skipped by a single writer (for db/prepared.ts). */
  lock(statement: CompiledStatement, parameters: unknown[]): void {
    if (!this.singleWriter) this.send(statement, parameters);
  }

  protected constructor(config: KyselyConfig) {
    super(config);
  }
}
