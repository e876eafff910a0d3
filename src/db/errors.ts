// SQLite primary result codes that mean "the database cannot serve now", not "this request is wrong":
// BUSY, LOCKED, READONLY, IOERR, CORRUPT, FULL, CANTOPEN. CORRUPT is what reads give once the disk fails under
// an open database (after one IOERR, test/campaigns/sqlite-disk.test.ts saw only "disk image is malformed").
const SQLITE_UNAVAILABLE = new Set([5, 6, 8, 10, 11, 13, 14]);

// PostgreSQL SQLSTATE classes and codes that mean "cannot serve now": connection exceptions (08), insufficient
// resources (53), operator intervention such as a shutdown or restart (57P01–57P03), and serialization
// failures under load (40001, 40P01) which a retry resolves.
const PG_UNAVAILABLE = /^(08|53|57P0[1-3]|40001|40P01)/;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const PG_POOL_MESSAGES = new RegExp(
  `^(${[
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'timeout expired', // pg's own connect timeout (FastFailingClient in postgres.ts)
    'Client has encountered a connection error',
    'Cannot use a pool after calling end',
  ].join('|')})`,
);

/** Raised by a database that is closing or closed: the request meets a server on its way down. */
export class DatabaseClosedError extends Error {
  constructor() {
    super('the database is closed');
    this.name = 'DatabaseClosedError';
  }
}

/**
 * Raised when SQLite's WAL could not be synced (db/sqlite/wal-sync.ts): what was committed since may not be on disk, so
 * nothing more is acknowledged until an operator restarts the server on a working disk.
 */
export class DurabilityLostError extends Error {
  readonly code: string;
  constructor(code: string) {
    super(`the SQLite WAL could not be synced to disk (${code}); no write is acknowledged until a restart`);
    this.name = 'DurabilityLostError';
    this.code = 'ERR_DURABILITY_LOST';
  }
}

/** True for errors that mean the database is unreachable or unable to write: answered with 503, not 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseClosedError || error instanceof DurabilityLostError) return true;
  const e = error as { code?: unknown; errcode?: unknown };
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code)) return true;
    if (/^[0-9A-Z]{5}$/.test(e.code) && PG_UNAVAILABLE.test(e.code)) return true;
  }
  if (error instanceof Error && PG_POOL_MESSAGES.test(error.message)) return true;
  if (e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') return SQLITE_UNAVAILABLE.has(e.errcode & 0xff);
  if (e.code === 'ERR_INVALID_STATE') return true; // node:sqlite: "database is not open"
  // Kysely after destroy(), i.e. a request that arrives while the process closes its database.
  return error instanceof Error && error.message === 'driver has already been destroyed';
}
