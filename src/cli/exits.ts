import { CommanderError } from 'commander';
import { ApiError } from '../platform/http/errors.ts';
import { ConfigError } from '../platform/kit/settings.ts';

/** The CLI's exit codes: sysexits(3) where one fits (docs/api.md#exit-codes). */
export const EXIT = {
  ok: 0,
  /** A refusal or a failed check: no such key or org, `account_balance_nonzero`, a breached ledger invariant. */
  failure: 1,
  /** A bad setting (as the server's start-up). */
  config: 2,
  usage: 64,
  /** The command line is well formed but a value in it is not (a note the API's schema refuses). */
  data: 65,
  /** The database cannot be reached. */
  unavailable: 69,
  /** A bug: an error nobody planned for. */
  software: 70,
} as const;

/** An outcome the command expects and explains; `message` is the line for stderr (empty: the command said it). */
export class Failure extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.failure) {
    super(message);
    this.exitCode = exitCode;
  }
}

// Refused connections and names that do not resolve (PostgreSQL), "cannot connect now" and a SQLite file that
// cannot be opened: the database is unavailable, not the command wrong.
const UNAVAILABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', '57P03']);
const SQLITE_CANTOPEN = 14;

/** The exit code for an error that ended a command, and whether its message is worth printing. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (error instanceof Failure) return error.exitCode;
  if (error instanceof ConfigError) return EXIT.config;
  if (error instanceof ApiError) return error.code === 'parameter_invalid' ? EXIT.data : EXIT.failure;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (UNAVAILABLE.has(String(code)) || errcode === SQLITE_CANTOPEN) return EXIT.unavailable;
  return EXIT.software;
}

/** The line stderr gets for it (before redaction), without the `plinth: ` prefix; empty when nothing is to be said. */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  if (error instanceof ConfigError) return `bad configuration: ${text}`;
  if (error instanceof ApiError) return `${error.code}: ${text}`;
  if (error instanceof Failure) return text;
  const code = exitCodeOf(error);
  if (code === EXIT.unavailable) return `the database is unavailable: ${text}`;
  if (code === EXIT.software) return `internal error: ${text}`;
  return text;
}
