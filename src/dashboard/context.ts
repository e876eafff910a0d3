import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../db/database.ts';
import type { AuthDeps } from '../platform/auth/auth.ts';
import type { Principal } from '../platform/auth/principal.ts';
import type { KeyVerifier } from '../platform/auth/verify.ts';
import type { ApiError } from '../platform/http/errors.ts';
import type { IdempotentWrite } from '../platform/idempotency/idempotency.ts';
import type { Clock } from '../platform/kit/time.ts';
import type { OperationSchema, Result } from '../platform/operations/operation.ts';
import type { EventCheck } from '../platform/outbox/chain.ts';
import type { EventRecorder } from '../platform/outbox/emit.ts';
import type { SecretBox } from '../platform/secrets/box.ts';
import type { Resolver } from '../platform/ssrf.ts';
import type { FintechSettings } from '../products/fintech/index.ts';
import type { Action, Perform, reader } from './act.ts';
import type { Html } from './html.ts';
import type { Session } from './sessions.ts';
import type { DashboardSettings } from './settings.ts';
import type { FormState, View } from './view.ts';

/** What the dashboard is built from: the same parts the API's routes are (its module, dashboard/index.ts). */
export interface DashboardDeps {
  /** Its own settings, and fintech's countries (the account form offers them). */
  config: Static<typeof DashboardSettings> & Static<typeof FintechSettings>;
  database: Database;
  clock: Clock;
  events: EventRecorder;
  /** The API's authentication parts: the key verifier, the limiter and its budgets, key usage. */
  auth: AuthDeps;
  keys: KeyVerifier;
  /** The idempotency step every POST of the API runs through, without its HTTP half. */
  idempotent: IdempotentWrite;
  secrets: SecretBox;
  resolve: Resolver;
  /** Events committed before now are numbered (PostgreSQL's sequencer), as the API's event lists wait for. */
  caughtUp: () => Promise<void>;
  /** Every module's check of its rows against their events (the composition root's, as `cli audit verify` runs). */
  eventChecks: readonly EventCheck[];
}

/** What the pages use: the API's declared operations, to act (`perform`) and to read (`read`), as the session. */
export interface Ctx {
  deps: DashboardDeps;
  perform: Perform;
  read: ReturnType<typeof reader>;
  /** Wakes the delivery workers (a retry is due now). */
  poke: () => void;
  view(request: FastifyRequest): Promise<View>;
  /**
   * Runs a form's action: on success `done` answers (a redirect, or a page that shows a secret once); a refusal
   * re-renders the form's page with the API's problem beside the field it names.
   */
  submit<S extends OperationSchema>(
    request: FastifyRequest,
    reply: FastifyReply,
    form: FormSubmit<S>,
  ): Promise<FastifyReply>;
}

/** A form that performs one operation of the API (`S`, its schema): what it builds, what it shows once done. */
export interface FormSubmit<S extends OperationSchema> {
  name: string;
  /** The action from the form's fields; may refuse a field the API never sees (a major-unit amount). */
  build(fields: URLSearchParams, principal: Principal): Promise<Action<S>>;
  done(result: { value: Result<S>; replayed: boolean }, view: View): string | Html;
  again(view: View, state: FormState): Promise<Html>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard session a /dashboard request acts for; null on its public pages. */
    dashboardSession: Session | null;
  }
  interface FastifyContextConfig {
    /** /dashboard pages that need no session: sign-in and the assets. */
    dashboardPublic?: boolean;
  }
}

export type { ApiError };
