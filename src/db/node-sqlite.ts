import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

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
function toSqlite(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : (p as SQLInputValue)));
}
