import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * The node:sqlite connection behind a Kysely instance, for statements compiled once (db/prepared.ts) to run on
 * directly, without Kysely's executor: its connection mutex and the promises around each statement cost more than
 * the statement. `writer`: the group commit's connection, whose only transaction is the group commit's own (every
 * write runs inside it, one at a time), so a statement may always run on it. The reader also serves Kysely transactions (the ledger check's snapshot): while one is open, a
 * statement must wait for it through Kysely, or it would read that old snapshot.
 */
const connections = new WeakMap<object, { native: DatabaseSync; writer: boolean }>();

export function registerConnection(db: object, native: DatabaseSync, writer: boolean): void {
  connections.set(db, { native, writer });
}

/** The connection a statement may run on right now, bypassing Kysely; undefined: go through Kysely. */
export function directConnection(db: object): DatabaseSync | undefined {
  const connection = connections.get(db);
  if (connection === undefined || !connection.native.isOpen) return undefined;
  if (!connection.writer && connection.native.isTransaction) return undefined;
  return connection.native;
}

const STATEMENT_CACHE_SIZE = 200;

/**
 * Kysely's SQLite dialect expects better-sqlite3's statement API; node:sqlite differs a little: no `reader`
 * flag (a statement returns rows exactly when it has result columns) and parameters are spread, not passed
 * as an array. Prepared statements are cached by SQL text because Kysely prepares on every query.
 */
export function kyselySqliteDatabase(db: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      if (db.isOpen) db.close(); // Plinth may have closed it first (see sqlite.ts)
    },
    prepare(sql: string): SqliteStatement {
      // SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR, …): Kysely's ROLLBACK then
      // failed with "no transaction is active", and that error, a 500, hid the one that mattered, a 503 (found by
      // test/campaigns/sqlite-disk.test.ts on a full disk).
      if (!db.isTransaction && /^\s*rollback\s*$/i.test(sql)) return NOTHING_TO_ROLL_BACK;
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = wrap(db.prepare(sql));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

const NOTHING_TO_ROLL_BACK: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

function wrap(statement: StatementSync): SqliteStatement {
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...toSqlite(parameters)),
    run(parameters) {
      const { changes, lastInsertRowid } = statement.run(...toSqlite(parameters));
      return { changes, lastInsertRowid };
    },
    iterate: (parameters) => statement.iterate(...toSqlite(parameters)) as IterableIterator<unknown>,
  };
}

// node:sqlite binds only null, numbers, bigints, strings and bytes; booleans become 0/1 as SQLite stores them.
export function toSqlite(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : (p as SQLInputValue)));
}
