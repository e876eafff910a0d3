import type { Migration } from 'kysely';
import type { Static } from 'typebox';
import { dashboard } from './dashboard/index.ts';
import { audit } from './modules/audit/index.ts';
import { sandboxClock } from './modules/clock/index.ts';
import { eventsModule } from './modules/events/index.ts';
import { keys } from './modules/keys/index.ts';
import { requests } from './modules/requests/index.ts';
import { deleteDeliveriesOf, fanOut, webhooks } from './modules/webhooks/index.ts';
import { type ErrorCatalogue, errorCatalogue } from './platform/http/error-codes.ts';
import { useErrorCatalogue } from './platform/http/errors.ts';
import { type SecretShape, useSecretShapes } from './platform/kit/redact.ts';
import { PLATFORM_MIGRATIONS } from './platform/migrations/index.ts';
import type { EventCheck } from './platform/outbox/chain.ts';
import { type EventRecorder, eventRecorder } from './platform/outbox/emit.ts';
import { useEventTypes } from './platform/outbox/types.ts';
import type { SealedColumn } from './platform/secrets/rotate.ts';
import { fintech } from './products/fintech/index.ts';

/**
 * The composition root's list: every module, once, in the order they are installed (the order the reference lists
 * their operations, tags, event types and settings). The API server (app.ts), the CLI and the delivery processes all
 * build from it, so no process forgets a module (docs/architecture.md, "Modules"). A new module is one line here.
 */
export const MODULES = [
  keys,
  webhooks,
  eventsModule(deleteDeliveriesOf),
  audit,
  sandboxClock,
  fintech,
  requests,
  dashboard,
] as const;

/** What runs once events are numbered, in the same transaction: the webhooks' fan-out to their endpoints. */
export const AFTER_NUMBERED = fanOut;

/**
 * The event recorder of a process that writes without the API (the operator CLI): wired as the app's is (app.ts),
 * less the sequencer's wake-up, which the API processes' own poll covers.
 */
export const eventRecorderOutsideTheApp = (): EventRecorder => eventRecorder({ afterNumbered: AFTER_NUMBERED });

type Each = (typeof MODULES)[number];
type Intersect<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every module's settings, merged into the one Config (src/config.ts). */
export type ModuleSettings = Intersect<Static<NonNullable<Each['settings']>>>;

declare module './platform/http/error-codes.ts' {
  /** A registered module's codes are `ErrorCode`s: `new ApiError('insufficient_funds', …)` is checked. */
  interface ModuleErrors {
    registry: Intersect<NonNullable<Each['errors']>>;
  }
}

/** The one closed list of error codes: the core's and every module's, in catalogue order. */
export const ERROR_CODES: ErrorCatalogue = errorCatalogue(MODULES.map((m) => m.errors ?? {}));

/** Every module's secret shapes, redacted with the core's in every log line and error detail. */
export const SECRET_SHAPES: readonly SecretShape[] = MODULES.flatMap((m) => m.secretShapes ?? []);

/** Every event type, in reference order. */
export const EVENT_TYPES: readonly string[] = MODULES.flatMap((m) => m.eventTypes ?? []);

/** Every migration: what the server applies at start-up and `cli migrate` applies on demand (in name order). */
export const ALL_MIGRATIONS: Record<string, Migration>[] = [
  PLATFORM_MIGRATIONS,
  ...MODULES.map((m) => m.migrations ?? {}),
];

/** Every module's check of its rows against the events that reported them (`cli audit verify`). */
export const EVENT_CHECKS: readonly EventCheck[] = MODULES.flatMap((m) => m.eventChecks ?? []);

/** Every column of every module that holds sealed values: what `cli secrets rotate` re-seals, what start-up probes. */
export const SEALED_COLUMNS: SealedColumn[] = MODULES.flatMap((m) => m.sealedColumns ?? []);

/**
 * Hands the core what the modules register that it reads everywhere: the closed list of error codes (ApiError, the
 * problem schema, /docs/errors), the secret shapes (every log line, every error detail) and the event types (the
 * events' schemas). Each process calls it at start-up, before it logs, answers or declares a route: the app when it
 * is built, the CLI when it starts, a delivery process when it starts.
 */
export function registerModules(): void {
  useErrorCatalogue(ERROR_CODES);
  useSecretShapes(SECRET_SHAPES);
  useEventTypes(EVENT_TYPES);
}
