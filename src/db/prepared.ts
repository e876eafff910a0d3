import type { DatabaseSync } from 'node:sqlite';
import {
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type QueryResult,
  type SelectQueryBuilder,
  SqliteAdapter,
} from 'kysely';
import type { Db, Trx } from './database.ts';
import { type Parameters, parametersReader } from './fields.ts';
import { compiledStatementName, statementName } from './postgres/pg-write.ts';
import { directReader, type PreparedStatement, prepareOn, runPrepared } from './sqlite/node-sqlite.ts';
import type { Tables } from './tables.ts';
import { WriteTransaction } from './transaction.ts';

// A value no client can send in a bound parameter's place: NUL, then a name.
const MARK = '\u0000plinth-placeholder:';

/** Every name of P, each `true`: the compiler then refuses a list that forgets a column of a row type. */
export type Names<P> = { [K in keyof P & string]-?: true };

type Slot = { name: string } | { constant: unknown };

// biome-ignore lint/suspicious/noExplicitAny: any select, whatever its tables and columns
type AnySelect = SelectQueryBuilder<any, any, any>;

interface Compiled {
  query: CompiledQuery<unknown>;
  slots: Slot[];
  /** A name for it, the same for the same SQL (SQLite's statement cache). */
  name: string;
  /** Its name as a PostgreSQL prepared statement, parsed once per connection; undefined: run unnamed. */
  pgName: string | undefined;
  /** The SQL, as a write transaction runs it. */
  sql: string;
  /** Its parameters from the values given (`parametersReader`). */
  parameters: Parameters;
}

/**
 * A query built and compiled once per dialect, then run with new values. Kysely builds an immutable tree and compiles
 * it to SQL on every call; for the statements that every create, transfer or retrieve runs, that was a large share of
 * the main thread under load (bench/FINDINGS.md). Here the builder runs once, with named placeholders where the values
 * go, and each call only puts the values in the parameter list:
 *
 *   const byId = prepared<{ id: string }, AccountsTable>({ id: true }, (db, p) =>
 *     db.selectFrom('accounts').selectAll().where('id', '=', p.id));
 *   const { rows } = await byId(trx, { id });
 *
 * A placeholder may stand only where Kysely binds a value as a parameter (comparisons, inserted and updated values,
 * `sql` template values); the first call checks that every placeholder became a parameter, so a builder that inlines
 * one fails at once instead of running the same SQL for every value. The SQL differs between SQLite and PostgreSQL,
 * so it is compiled once per dialect adapter. In a write it runs as the write transaction runs statements
 * (transaction.ts); a read on SQLite's reader is prepared once and run on it directly (see `directReader`); a read on
 * PostgreSQL's pool goes through Kysely's executor.
 */
export function prepared<P extends object, R>(
  params: Names<P>,
  build: (db: Kysely<Tables>, placeholders: P) => AnySelect & Compilable<R>,
): (db: Db, values: P) => Promise<QueryResult<R>> {
  return compileOnce(params, build).run;
}

/**
 * A write compiled once, as `prepared` does for a read, whose answer the write needs (`returning`, a count of the
 * rows changed), or a select that locks rows (`FOR UPDATE`). It takes a `Trx`, which only the write pipeline makes,
 * so a write cannot run on `db`. On PostgreSQL, awaiting it is a round trip: a write whose answer is not needed is
 * `preparedSend`.
 */
export function preparedWrite<P extends object, R = never>(
  params: Names<P>,
  build: (db: Kysely<Tables>, placeholders: P) => Compilable<R>,
): (trx: Trx, values: P) => Promise<QueryResult<R>> {
  return compileOnce(params, build).run;
}

/**
 * A write compiled once whose answer the write does not need (an insert, an update): issued, not awaited. On
 * PostgreSQL it goes on the wire with the statements around it, in one round trip (db/postgres/pg-write.ts), and its failure
 * fails the write at its next awaited statement or at COMMIT; on SQLite it runs at once and throws at once.
 */
export function preparedSend<P extends object>(
  params: Names<P>,
  build: (db: Kysely<Tables>, placeholders: P) => Compilable<unknown>,
): (trx: Trx, values: P) => void {
  return compileOnce(params, build).send;
}

/**
 * A statement that only locks rows (`FOR NO KEY UPDATE` with no column the write reads), issued first so that the
 * reads after it see what the previous holder of the lock committed: sent on PostgreSQL, skipped on SQLite, whose
 * single writer already holds every row (transaction.ts).
 */
export function preparedLock<P extends object>(
  params: Names<P>,
  build: (db: Kysely<Tables>, placeholders: P) => Compilable<unknown>,
): (trx: Trx, values: P) => void {
  return compileOnce(params, build).lock;
}

interface Runner<P, R> {
  /** The statement as compiled for `db`'s dialect (once). */
  compiled: (db: Kysely<Tables>) => Compiled;
  run: (db: Db, values: P) => Promise<QueryResult<R>>;
  send: (trx: Trx, values: P) => void;
  lock: (trx: Trx, values: P) => void;
}

function compileOnce<P extends object, R>(
  params: Names<P>,
  build: (db: Kysely<Tables>, placeholders: P) => Compilable<R>,
): Runner<P, R> {
  const names = Object.keys(params);
  // A plain object (not a proxy), so that a builder may spread it: `.values(p)` inserts every named column.
  const placeholders = Object.fromEntries(names.map((name) => [name, `${MARK}${name}`])) as P;
  // Compiled once per dialect (the SQL differs), keyed by the adapter's class: every connection's Kysely shares it.
  const byDialect = new Map<unknown, Compiled>();
  const compile = (db: Kysely<Tables>): Compiled => {
    const query = build(db, placeholders).compile() as CompiledQuery<unknown>;
    const slots = query.parameters.map(
      (value): Slot =>
        typeof value === 'string' && value.startsWith(MARK) ? { name: value.slice(MARK.length) } : { constant: value },
    );
    const bound = new Set(slots.flatMap((slot) => ('name' in slot ? [slot.name] : [])));
    const unbound = names.filter((name) => !bound.has(name));
    if (query.sql.includes(MARK) || unbound.length > 0)
      throw new Error(`prepared: placeholders ${unbound.join(', ')} were not bound as parameters`);
    // SQLite re-prepares a statement with a bound LIMIT at every run (node-sqlite.ts): one statement per value.
    if (db.getExecutor().adapter instanceof SqliteAdapter && /\blimit \?/i.test(query.sql))
      throw new Error(`prepared: a bound LIMIT (${query.sql}): compile one statement per value (perLimit)`);
    return {
      query,
      slots,
      name: statementName(query.sql),
      pgName: compiledStatementName(query.sql),
      sql: query.sql,
      parameters: parametersReader(slots),
    };
  };
  const compiledFor = (db: Kysely<Tables>): Compiled => {
    const dialect = db.getExecutor().adapter.constructor;
    let compiled = byDialect.get(dialect);
    if (compiled === undefined) {
      compiled = compile(db);
      byDialect.set(dialect, compiled);
    }
    return compiled;
  };
  const parametersOf = (compiled: Compiled, values: P) => compiled.parameters(values);
  const onReader = new WeakMap<DatabaseSync, PreparedStatement>();
  const readOn = (native: DatabaseSync, compiled: Compiled, parameters: unknown[]): QueryResult<R> => {
    let statement = onReader.get(native);
    if (statement === undefined) {
      statement = prepareOn(native, compiled.sql);
      onReader.set(native, statement);
    }
    return runPrepared<R>(statement, parameters);
  };
  return {
    compiled: compiledFor,
    run(db, values) {
      try {
        const compiled = compiledFor(db);
        const parameters = parametersOf(compiled, values);
        if (db instanceof WriteTransaction) return db.run<R>(compiled, parameters);
        const native = directReader(db);
        if (native === undefined) return db.executeQuery({ ...compiled.query, parameters } as CompiledQuery<R>);
        return Promise.resolve(readOn(native, compiled, parameters));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    send(trx, values) {
      const compiled = compiledFor(trx);
      trx.send(compiled, parametersOf(compiled, values));
    },
    lock(trx, values) {
      const compiled = compiledFor(trx);
      trx.lock(compiled, parametersOf(compiled, values));
    },
  };
}

/**
 * `preparedSend` for a statement whose values come as an array in the order of its parameters, with no name looked
 * up per value: for a multi-row insert (the request log's batches, 128 rows of 24 columns), where a lookup by name
 * per value cost more than the insert. `params` names the parameters in the order the statement binds them; the
 * first call per dialect checks that order and that no parameter is a constant.
 */
export function preparedSendInOrder(
  params: string[],
  build: (db: Kysely<Tables>, placeholders: Record<string, unknown>) => Compilable<unknown>,
): (trx: Trx, values: unknown[]) => void {
  const runner = compileOnce<Record<string, unknown>, unknown>(
    Object.fromEntries(params.map((name) => [name, true])),
    build,
  );
  const checked = new Set<unknown>();
  return (trx, values) => {
    const compiled = runner.compiled(trx);
    if (!checked.has(compiled)) {
      const inOrder =
        compiled.slots.length === params.length &&
        compiled.slots.every((slot, i) => 'name' in slot && slot.name === params[i]);
      if (!inOrder) throw new Error('prepared: the parameters are not bound in the order named');
      checked.add(compiled);
    }
    if (values.length !== params.length) throw new Error(`prepared: ${values.length} values for ${params.length}`);
    trx.send(compiled, values);
  };
}

/**
 * One statement per LIMIT value, the value written into the SQL (`.limit(sql.lit(limit))`), never bound: SQLite
 * (3.53, node:sqlite's) re-prepares a statement whose LIMIT is a bound parameter at every run, whatever the value, as
 * if its schema had changed (bench/FINDINGS.md). For limits that take a few values (a sweep's batch size).
 */
export function perLimit<T>(make: (limit: number) => T): (limit: number) => T {
  const made = new Map<number, T>();
  return (limit) => {
    let one = made.get(limit);
    if (one === undefined) {
      if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a limit: ${limit}`);
      one = make(limit);
      made.set(limit, one);
    }
    return one;
  };
}
