import { DatabaseSync } from 'node:sqlite';

/** One call a server made on node:sqlite: a statement run with its parameters, or an `exec`. */
export interface Recorded {
  kind: 'exec' | 'run' | 'all' | 'get';
  sql: string;
  params: unknown[];
  /** The connection it ran on (a server has several: the writer, its readers, the checkpointer's). */
  connection: DatabaseSync;
}

/** The statements run on the writer: the connection of the first `BEGIN IMMEDIATE` recorded (none: every one). */
export function onWriter(recorded: Recorded[]): Recorded[] {
  const writer = recorded.find((r) => r.sql === 'BEGIN IMMEDIATE')?.connection;
  return writer === undefined ? recorded : recorded.filter((r) => r.connection === writer);
}

/**
 * Wraps node:sqlite's `prepare` and `exec` in this process so that every statement run between `start()` and `stop()`
 * is recorded with its parameters (the floor experiments replay them on SQLite alone). Install it before the server
 * opens its database: statements prepared earlier are not wrapped. `restore()` puts node:sqlite back as it was, so that
 * statements prepared afterwards (a floor server's own) pay nothing for the recorder.
 */
export function recordSqlite(): { start(): void; stop(): Recorded[]; restore(): void } {
  let recorded: Recorded[] = [];
  let recording = false;
  const prepare = DatabaseSync.prototype.prepare;
  const exec = DatabaseSync.prototype.exec;
  DatabaseSync.prototype.prepare = function (this: DatabaseSync, sql: string) {
    const statement = prepare.call(this, sql);
    for (const kind of ['run', 'all', 'get'] as const) {
      const call = statement[kind].bind(statement) as (...params: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[kind] = (...params: unknown[]) => {
        if (recording) recorded.push({ kind, sql, params, connection: this });
        return call(...params);
      };
    }
    return statement;
  } as typeof prepare;
  DatabaseSync.prototype.exec = function (this: DatabaseSync, sql: string) {
    if (recording) recorded.push({ kind: 'exec', sql, params: [], connection: this });
    return exec.call(this, sql);
  };
  return {
    start() {
      recorded = [];
      recording = true;
    },
    stop() {
      recording = false;
      return recorded;
    },
    restore() {
      recording = false;
      DatabaseSync.prototype.prepare = prepare;
      DatabaseSync.prototype.exec = exec;
    },
  };
}
