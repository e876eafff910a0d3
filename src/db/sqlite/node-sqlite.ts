import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import {
  type LimitNode,
  type QueryResult,
  type SelectModifierNode,
  type SqliteDatabase,
  SqliteDialect,
  SqliteQueryCompiler,
  type SqliteStatement,
  ValueNode,
} from 'kysely';

/**
 * The reader's node:sqlite connection, for statements compiled once (db/prepared.ts) to run on directly, without
 * Kysely's executor: its connection mutex and the promises around each statement cost more than the statement. With a
 * file, the connection is the durable snapshot current when the statement runs (durable-reads.ts). With `:memory:` it
 * is the writer's connection, which also serves Kysely transactions: while one is open there, a statement must wait
 * for it through Kysely. (The writer is the write transaction, sqlite-transaction.ts.)
 */
const readers = new WeakMap<object, () => DatabaseSync | undefined>();

export function registerReader(db: object, connection: () => DatabaseSync | undefined): void {
  readers.set(db, connection);
}

/** The reader connection a statement may run on right now, bypassing Kysely; undefined: go through Kysely. */
export function directReader(db: object): DatabaseSync | undefined {
  const native = readers.get(db)?.();
  if (native === undefined || !native.isOpen) return undefined;
  return native;
}

/**
 * A statement prepared on one connection: whether it has result columns (asked once: `columns()` allocates), and how
 * a row it returns becomes an object (`rowMaker`), or null for a statement that returns none.
 */
export interface PreparedStatement {
  statement: StatementSync;
  returnsRows: boolean;
  makeRow: ((values: unknown[]) => unknown) | null;
}

export function prepareOn(native: DatabaseSync, sql: string): PreparedStatement {
  const statement = native.prepare(sql);
  const names = statement.columns().map((column) => column.name);
  const makeRow = names.length === 0 ? null : rowMaker(names);
  if (makeRow !== null) statement.setReturnArrays(true);
  return { statement, returnsRows: names.length > 0, makeRow };
}

/**
 * A row as an object of one shape per statement. node:sqlite's own rows are null-prototype objects in dictionary mode,
 * built with a fresh string per column name: each costs a hash table and a look-up per column read, and V8 takes its
 * slow path wherever one is copied (a rest pattern cost a delivery 36k instructions, bench/FINDINGS.md). Here the
 * statement returns arrays, and a function compiled once per statement makes each row with one object literal: the
 * same fields, in the same order (a name given twice keeps its last value, as node:sqlite's object does), fast-mode
 * and alike, so that every reader of the statement's rows reads them from one map.
 */
export function rowMaker(names: string[]): ((values: unknown[]) => unknown) | null {
  // A `__proto__` field in an object literal would set the prototype: such a statement keeps node:sqlite's rows.
  if (names.includes('__proto__')) return null;
  const fields = names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as (values: unknown[]) => unknown;
}

export function runPrepared<R>(
  { statement, returnsRows, makeRow }: PreparedStatement,
  parameters: unknown[],
): QueryResult<R> {
  const values = toSqlite(parameters);
  if (!returnsRows) {
    const { changes } = statement.run(...values);
    return { rows: [], numAffectedRows: BigInt(changes) };
  }
  const found = statement.all(...values) as unknown[];
  if (makeRow === null) return { rows: found as R[] };
  const rows = new Array<R>(found.length);
  for (let i = 0; i < found.length; i++) rows[i] = makeRow(found[i] as unknown[]) as R;
  return { rows };
}

const ROW_LOCKS = new Set(['ForUpdate', 'ForNoKeyUpdate', 'ForShare', 'ForKeyShare', 'NoWait', 'SkipLocked']);

/**
 * SQLite's compiler, less row locks: SQLite has no `FOR UPDATE` (its one writer already holds every row), so a
 * select written with a lock for PostgreSQL is a plain read here, and no caller picks a statement per backend.
 *
 * A LIMIT given as a number (`.limit(1)`, a page's `take`) is written into the SQL, not bound: SQLite (3.53,
 * node:sqlite's) re-prepares a statement whose LIMIT is a bound parameter at every run, whatever the value, as if its
 * schema had changed (bench/FINDINGS.md). Statements are cached by their text (below), so each value is prepared
 * once. A LIMIT that is a placeholder of a statement compiled once (db/prepared.ts) stays bound, and `prepared`
 * refuses it on SQLite: such a statement takes one compiled form per value (`perLimit`).
 */
export class SqliteCompiler extends SqliteQueryCompiler {
  protected override sortSelectModifiers(modifiers: SelectModifierNode[]): ReadonlyArray<SelectModifierNode> {
    return super.sortSelectModifiers(modifiers.filter((m) => m.modifier === undefined || !ROW_LOCKS.has(m.modifier)));
  }

  protected override visitLimit(node: LimitNode): void {
    const { limit } = node;
    if (ValueNode.is(limit) && typeof limit.value === 'number' && Number.isSafeInteger(limit.value))
      this.append(`limit ${limit.value}`);
    else super.visitLimit(node);
  }
}

class Dialect extends SqliteDialect {
  override createQueryCompiler(): SqliteQueryCompiler {
    return new SqliteCompiler();
  }
}

/** Kysely's SQLite dialect over a node:sqlite connection, with the compiler above. */
export const sqliteDialect = (native: DatabaseSync): SqliteDialect =>
  new Dialect({ database: kyselySqliteDatabase(native) });

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
