import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
} from 'kysely';
import type { DurableReads, Reader } from './durable-reads.ts';
import { SqliteCompiler } from './node-sqlite.ts';

/** Kysely over the durable reads: each statement on the snapshot current when it runs; a transaction on one. */
export function durableReadsDialect(reads: DurableReads): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReadsDriver(reads),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteCompiler(),
  };
}

class ReadsConnection implements DatabaseConnection {
  readonly #reads: DurableReads;
  held: Reader | undefined;

  constructor(reads: DurableReads) {
    this.#reads = reads;
  }

  executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const statement = (this.held?.kysely ?? this.#reads.kyselyForRead()).prepare(sql);
      if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
      const { changes } = statement.run(parameters);
      return Promise.resolve({ rows: [], numAffectedRows: BigInt(changes) });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async *streamQuery<R>({ sql, parameters }: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // An iteration spans turns of the event loop: it keeps its snapshot until it ends.
    const reader = this.held ?? this.#reads.hold();
    try {
      for (const row of reader.kysely.prepare(sql).iterate(parameters)) yield { rows: [row as R] };
    } finally {
      if (reader !== this.held) this.#reads.letGoOf(reader);
    }
  }
}

class ReadsDriver implements Driver {
  readonly #reads: DurableReads;

  constructor(reads: DurableReads) {
    this.#reads = reads;
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new ReadsConnection(this.#reads);
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as ReadsConnection).held = this.#reads.hold();
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.#end(connection as ReadsConnection);
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.#end(connection as ReadsConnection);
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#end(connection as ReadsConnection);
  }
  async destroy(): Promise<void> {
    this.#reads.close();
  }

  #end(connection: ReadsConnection): void {
    const held = connection.held;
    connection.held = undefined;
    if (held !== undefined) this.#reads.letGoOf(held);
  }
}
