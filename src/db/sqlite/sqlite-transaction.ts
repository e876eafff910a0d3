import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { QueryResult } from 'kysely';
import { type CompiledStatement, WriteTransaction } from '../transaction.ts';
import { type PreparedStatement, prepareOn, runPrepared, sqliteDialect } from './node-sqlite.ts';

/**
 * SQLite's write transaction: the writer connection, on which the group commit (group-commit.ts) runs one write at
 * a time, each in its savepoint of one shared transaction. Row locks and turns cost nothing here: the single writer
 * already has them. Work before and after the commit is kept per write, so that a write rolled back to its savepoint
 * leaves none behind.
 */
export class SqliteTransaction extends WriteTransaction {
  readonly singleWriter: boolean;
  readonly native: DatabaseSync;
  #statements = new Map<string, PreparedStatement>();
  #totalChanges: StatementSync;
  #before: (() => void)[] = [];
  #after: (() => void)[] = [];

  constructor(native: DatabaseSync) {
    super({ dialect: sqliteDialect(native) });
    this.native = native;
    this.singleWriter = true;
    this.#totalChanges = native.prepare('select total_changes() as n');
  }

  writeCount(): number {
    return Number((this.#totalChanges.get() as { n: number }).n);
  }
  tryTurn(): Promise<boolean> {
    return Promise.resolve(true);
  }
  takeTurn(): void {}
  shareTurn(): void {}
  beforeCommit(issue: () => void): void {
    this.#before.push(issue);
  }
  afterCommit(run: () => void): void {
    this.#after.push(run);
  }

  run<R>(statement: CompiledStatement, parameters: unknown[]): Promise<QueryResult<R>> {
    try {
      return Promise.resolve(runPrepared<R>(this.#prepared(statement), parameters));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  send(statement: CompiledStatement, parameters: unknown[]): void {
    runPrepared(this.#prepared(statement), parameters);
  }

  #prepared(statement: CompiledStatement): PreparedStatement {
    let prepared = this.#statements.get(statement.name);
    if (prepared === undefined) {
      prepared = prepareOn(this.native, statement.sql);
      this.#statements.set(statement.name, prepared);
    }
    return prepared;
  }

  /** The group commit: a write's work is done; issues what waits for its commit, answers what runs after it. */
  finishWrite(): (() => void)[] {
    for (const issue of this.#before.splice(0)) issue();
    return this.#after.splice(0);
  }
  /** The group commit: a write failed and is rolled back to its savepoint; what it left for the commit goes. */
  abandonWrite(): void {
    this.#before.length = 0;
    this.#after.length = 0;
  }
}
