import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Migration } from 'kysely';
import type { Registry } from 'prom-client';
import type { Static, TObject } from 'typebox';
import type { Database } from '../db/database.ts';
import type { AuthDeps } from './auth/auth.ts';
import type { KeyVerifier } from './auth/verify.ts';
import type { OwnerNow } from './clock/clock.ts';
import type { DueSource } from './clock/due.ts';
import type { ErrorTable } from './http/error-codes.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { IdempotentWrite, WithIdempotency } from './idempotency/idempotency.ts';
import type { SecretShape } from './kit/redact.ts';
import type { Clock } from './kit/time.ts';
import type { EventCheck } from './outbox/chain.ts';
import type { EventRecorder } from './outbox/emit.ts';
import type { Sequencer } from './outbox/sequencer.ts';
import type { SecretBox } from './secrets/box.ts';
import type { SealedColumn } from './secrets/rotate.ts';
import type { PlatformConfig } from './settings.ts';
import type { Resolver } from './ssrf.ts';

/**
 * What the composition root (src/modules.ts, src/app.ts) hands every module: the shared mechanisms, built once per
 * process and passed in (no module-level singletons). A module reads its own settings from `settings`, typed by the
 * schema it declares; `platform` is the core's.
 */
export interface Host<Settings = unknown> {
  database: Database;
  /** Real time (what keeps the service running); an owner's time is `now`. */
  clock: Clock;
  /** "Now" for an owner: the sandbox clock in sandbox mode (clock/clock.ts). */
  now: OwnerNow;
  /** Every module's due work, which sandbox clocks run as they move (clock/due.ts). */
  due: readonly DueSource[];
  /** Every module's check of its rows against the events that reported them (the dashboard's "Verify the chain"). */
  eventChecks: readonly EventCheck[];
  log: FastifyBaseLogger;
  /** The module's own settings, parsed from the environment with every other module's at start-up. */
  settings: Settings;
  /** Another module's settings, by its schema (the dashboard reads fintech's countries): the same parsed values. */
  settingsOf<T extends TObject>(schema: T): Static<T>;
  /** The core's settings (listen address, database, limits, secrets). */
  platform: PlatformConfig;
  /** Records a write's events, in its transaction (the outbox), numbered by the sequencer. */
  events: EventRecorder;
  sequencer: Sequencer;
  /** The step every POST handler wraps around its service call: one write, idempotent under a key. */
  withIdempotency: WithIdempotency;
  /** The same write without a request (the dashboard's forms run it with their own key). */
  idempotent: IdempotentWrite;
  /** Seals secrets at rest (AES-256-GCM under SECRETS_KEY). */
  secrets: SecretBox;
  /** /metrics. */
  registry: Registry;
  limiter: RateLimiter;
  /** Authentication and rate limits, as the API applies them (the dashboard signs in with the same). */
  auth: AuthDeps;
  keys: KeyVerifier;
  /** Name resolution for outbound requests' SSRF checks (webhook targets); tests inject one. */
  resolve: Resolver;
}

/** Work a module runs every `everyMs` in each API process (purges, sweeps): never two passes at once. */
export interface Job {
  what: string;
  everyMs: number;
  /** One pass; returns how many rows it handled (logged when above 0). */
  pass(): Promise<number>;
}

/**
 * A module: one folder that declares everything the rest of the system needs to know of it, in one value. The
 * platform's features (keys, events, webhooks, the request log, the dashboard) and every product are modules, listed
 * once in src/modules.ts, which the server, the CLI and the delivery processes all build from, so no process can
 * forget one (docs/architecture.md, "Modules").
 */
export interface Module<S extends TObject = TObject, E extends ErrorTable = Record<never, never>> {
  name: string;
  /** OpenAPI tags of its operations, in the order the reference shows them. */
  tags?: { name: string; description: string }[];
  /** Its migrations by name; names are timestamps, applied in name order across every module. */
  migrations?: Record<string, Migration>;
  /** Its environment variables (see platform/kit/settings.ts). */
  settings?: S;
  /** Its error codes: the registry adds them to the one closed list (`ErrorCode`, by declaration merging). */
  errors?: E;
  /** Its event types, in the order the reference lists them; their payloads are typed by `EventPayloads`. */
  eventTypes?: readonly string[];
  /** What its secrets look like, redacted with every other module's in every log line and error detail. */
  secretShapes?: SecretShape[];
  /** How `cli audit verify` checks its rows against the events that reported them (outbox/chain.ts). */
  eventChecks?: EventCheck[];
  /** Columns holding values sealed with Host.secrets: `cli secrets rotate` re-seals them. */
  sealedColumns?: SealedColumn[];
  /** Its routes and hooks, on the app. */
  install?(app: FastifyInstance, host: Host<Static<S>>): void | Promise<void>;
  /** Where its work that falls due on a sandbox clock is found (a payment's settlement: clock/due.ts). */
  due?(host: Host<Static<S>>): DueSource[];
  /** Its background work, started with the app and stopped when it closes. */
  jobs?(host: Host<Static<S>>): Job[];
  /** Its own metrics, registered on the app's /metrics registry. */
  metrics?(registry: Registry, host: Host<Static<S>>): void;
}

/** Checks a module's shape where it is written, keeping its settings type precise. */
export function defineModule<S extends TObject, E extends ErrorTable = Record<never, never>>(
  module: Module<S, E>,
): Module<S, E> {
  return module;
}
