import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import { type CompiledStatement, WriteTransaction } from '../transaction.ts';
import { CHANGES_ROWS, type PgStatement, type PgWriteControl, statementName } from './pg-write.ts';

/** The write a connection's transaction runs now; null between writes. */
interface Slot {
  write: PgWriteControl | null;
}

const inWrite = (slot: Slot): PgWriteControl => {
  if (slot.write === null) throw new Error('postgres: a transaction used outside its write');
  return slot.write;
};

/**
 * Kysely's driver for a query built on the transaction (not compiled once): it runs in the current write of the
 * connection, pipelined with the write's other statements, and its answer is awaited (one round trip).
 */
function pipelinedDialect(slot: Slot): Dialect {
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const result = await inWrite(slot).raw({ text: query.sql, values: [...query.parameters] });
      return {
        rows: result.rows as R[],
        numAffectedRows: CHANGES_ROWS.test(query.sql) && result.rowCount !== null ? BigInt(result.rowCount) : undefined,
      };
    },
    streamQuery: () => {
      throw new Error('postgres: streaming is not supported inside a write');
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    // The write (pg-write.ts) opens and ends the transaction; Kysely's own transactions have no place inside it.
    beginTransaction: async () => {
      throw new Error('postgres: a write is already a transaction');
    },
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

// Turns are transaction-level advisory locks on the 64-bit hash of a name (PostgreSQL's own hashtextextended).
const TRY_TURN = 'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as taken';
const TAKE_TURN = 'select pg_advisory_xact_lock(hashtextextended($1, 0))';
const SHARE_TURN = 'select pg_advisory_xact_lock_shared(hashtextextended($1, 0))';
const turn = (text: string, name: string): PgStatement => ({ name: statementName(text), text, values: [name] });

/**
 * PostgreSQL's write transaction: one per pooled connection (made once, not per write), running in the write that
 * holds the connection now (pg-write.ts), whose statements it pipelines.
 */
export class PgTransaction extends WriteTransaction {
  readonly singleWriter: boolean;
  #slot: Slot;

  constructor() {
    const slot: Slot = { write: null };
    super({ dialect: pipelinedDialect(slot) });
    this.#slot = slot;
    this.singleWriter = false;
  }

  /** postgres.ts: the write now running on this connection, or null once it ended. */
  hold(write: PgWriteControl | null): void {
    this.#slot.write = write;
  }

  writeCount(): number {
    return inWrite(this.#slot).writes;
  }
  async tryTurn(name: string): Promise<boolean> {
    const { rows } = await inWrite(this.#slot).query<{ taken: boolean }>(turn(TRY_TURN, name));
    return rows[0]?.taken === true;
  }
  takeTurn(name: string): void {
    inWrite(this.#slot).send(turn(TAKE_TURN, name));
  }
  shareTurn(name: string): void {
    inWrite(this.#slot).send(turn(SHARE_TURN, name));
  }
  beforeCommit(issue: () => void): void {
    inWrite(this.#slot).beforeCommit(issue);
  }
  afterCommit(run: () => void): void {
    inWrite(this.#slot).afterCommit(run);
  }
  run<R>(statement: CompiledStatement, parameters: unknown[]): Promise<QueryResult<R>> {
    return inWrite(this.#slot).query<R>({ name: statement.pgName, text: statement.sql, values: parameters });
  }
  send(statement: CompiledStatement, parameters: unknown[]): void {
    inWrite(this.#slot).send({ name: statement.pgName, text: statement.sql, values: parameters });
  }
}
