import { Writable } from 'node:stream';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { createKeyForOrgName } from '../../src/modules/keys/api-keys.operator.ts';
import type { KeysDeps } from '../../src/modules/keys/api-keys.service.ts';
import { ALL_MIGRATIONS, eventRecorderOutsideTheApp } from '../../src/modules.ts';
import type { Mode } from '../../src/platform/auth/principal.ts';
import { systemClock } from '../../src/platform/kit/time.ts';
import type { Resolver } from '../../src/platform/ssrf.ts';
import { freshDatabase } from './database.ts';
import { checkResponse } from './openapi.ts';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  database: Database;
  /** The DATABASE_URL the server runs on. */
  databaseUrl: string;
  /** Every log line the server wrote, as text. */
  logs: string[];
  /** A fresh key for the named org (created if needed), through the same service as the operator CLI. */
  key(org: string, mode?: Mode): Promise<string>;
  close(): Promise<void>;
}

/** Limits high enough that only the rate-limit tests, which set their own, ever meet them. */
export const UNLIMITED = {
  RATE_LIMIT_LIVE: '1000000',
  RATE_LIMIT_SANDBOX: '1000000',
  AUTH_FAILURE_BURST: '1000000',
  SIGNUP_PER_HOUR: '1000000',
  // Test receivers listen on 127.0.0.1; sandbox endpoints may target them.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on',
};

/** Tests never ask a DNS server: `localhost` is 127.0.0.1, and every other name fails to resolve. */
export const loopbackOnly: Resolver = async (hostname) => {
  if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  throw new Error(`no test resolution for ${hostname}`);
};

/** What the operator CLI hands the key services: the same services as the API, outside a request. */
export function operatorDeps(database: Database): KeysDeps {
  return { db: database.db, write: database.write, clock: systemClock, events: eventRecorderOutsideTheApp() };
}

/** A real listening server on a database of its own: a SQLite file in a temporary directory, or a PostgreSQL database. */
export async function startServer(
  env: Record<string, string> = {},
  overrides: Partial<AppDeps> = {},
): Promise<TestServer> {
  const fresh = await freshDatabase();
  const config = loadConfig({
    DATABASE_URL: fresh.url,
    LOG_LEVEL: 'info',
    SECRETS_KEY: process.env.SECRETS_KEY,
    ...UNLIMITED,
    ...env,
  });
  const database = openDatabase(config.DATABASE_URL);
  await database.migrate(ALL_MIGRATIONS);
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(
        ...String(chunk)
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  const app = await buildApp({ config, database, logStream, resolve: loopbackOnly, ...overrides });
  await app.listen({ host: '127.0.0.1', port: 0 });
  app.webhookDelivery.start();
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    database,
    databaseUrl: config.DATABASE_URL,
    logs,
    key: async (org, mode = 'sandbox') => (await createKeyForOrgName(operatorDeps(database), org, mode))!.key,
    async close() {
      await app.close();
      await database.close();
      await fresh.drop();
    },
  };
}

/**
 * The preamble of a suite that talks to one server: starts it before the suite's first test (before any `before` the
 * suite registers after this call, which may then use it) and closes it after the last. The object returned stands
 * for the server from then on; touched before it has started, it throws.
 *
 *   describe('transfers', () => {
 *     const server = useServer({ SUPPORTED_COUNTRIES: 'US' });
 *     let key: string;
 *     before(async () => {
 *       key = await server.key('acme');
 *     });
 */
export function useServer(env: Record<string, string> = {}, overrides: Partial<AppDeps> = {}): TestServer {
  let started: TestServer | undefined;
  const now = (): TestServer => {
    if (started === undefined) throw new Error('useServer: the server starts in before(); use it in a hook or a test');
    return started;
  };
  before(async () => {
    started = await startServer(env, overrides);
  });
  after(() => started?.close());
  return {
    get url() {
      return now().url;
    },
    get app() {
      return now().app;
    },
    get database() {
      return now().database;
    },
    get databaseUrl() {
      return now().databaseUrl;
    },
    get logs() {
      return now().logs;
    },
    key: (org, mode) => now().key(org, mode),
    close: () => now().close(),
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  body: any;
}

export interface CallOptions {
  key?: string;
  /** Serialized as JSON with Content-Type application/json. */
  json?: unknown;
  /** Sent exactly as given. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

/** One HTTP call as a client would make it. */
export async function call(base: string, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined = options.raw;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  checkResponse(method, base + path, response.status, response.headers, text, parsed);
  return { status: response.status, headers: response.headers, text, body: parsed };
}
