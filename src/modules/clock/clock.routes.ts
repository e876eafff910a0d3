import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Db } from '../../db/database.ts';
import { needs } from '../../platform/auth/permissions.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { requireSandbox } from '../../platform/auth/sandbox.ts';
import { clockRowOf } from '../../platform/clock/clock.ts';
import { type ClockDeps, runDue, setTarget } from '../../platform/clock/due.ts';
import { parseTime, TIME_PATTERN } from '../../platform/http/created-filter.ts';
import { ApiError } from '../../platform/http/errors.ts';
import type { WithIdempotency } from '../../platform/idempotency/idempotency.ts';
import { Ref } from '../../platform/kit/schema.ts';
import { declareRead, declareWrite, implement } from '../../platform/operations/operation.ts';
import { declareOperations } from '../../platform/operations/register.ts';

/** How far one advance may move a clock: ten years (docs/api.md#the-sandbox-clock). */
const MAX_ADVANCE_MS = 10 * 366 * 86_400_000;

const MOMENT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$';

export const SandboxClock = Type.Object(
  {
    object: Type.Literal('sandbox.clock'),
    now: Type.String({
      pattern: MOMENT_PATTERN,
      description: "The sandbox's time now, RFC 3339 in UTC to the millisecond: real time plus `offset_seconds`.",
    }),
    offset_seconds: Type.Integer({
      // Ten years at most per advance, but advances add up: past 2^31 seconds (68 years) after seven.
      format: 'int64',
      minimum: 0,
      description: 'How far the clock runs ahead of real time, in whole seconds; it only grows.',
    }),
  },
  {
    $id: 'SandboxClock',
    additionalProperties: false,
    description:
      "An org's sandbox clock: every sandbox time (creation times, expiries, settlements, the now of balances) is read " +
      'from it. Live mode has none.',
    examples: [{ object: 'sandbox.clock', now: '2026-11-30T14:00:00.000Z', offset_seconds: 172800 }],
  },
);
export type SandboxClock = Static<typeof SandboxClock>;

export const ClockAdvanceBody = Type.Object(
  {
    to: Type.String({
      pattern: TIME_PATTERN,
      description:
        'The new time: `YYYY-MM-DDTHH:MMZ` (that minute) or RFC 3339 with an offset; not earlier than the clock ' +
        'now (400 `parameter_invalid`), at most ten years later.',
      examples: ['2026-12-01T14:00Z'],
    }),
  },
  { additionalProperties: false, examples: [{ to: '2026-12-01T14:00Z' }] },
);
export type ClockAdvanceBody = Static<typeof ClockAdvanceBody>;

const TAG = 'Sandbox clock';

export const clockOps = {
  retrieveSandboxClock: declareRead({
    method: 'GET',
    path: '/v1/sandbox/clock',
    permission: needs('sandbox', 'read'),
    schema: {
      operationId: 'retrieveSandboxClock',
      'x-plinth-sdk': { resource: 'sandbox', method: 'retrieveClock' },
      tags: [TAG],
      summary: "Sandbox: the org's clock",
      description: 'Sandbox keys only (a live key: 403 `permission_denied`: live mode runs on real time).',
      'x-problems': ['permission_denied'],
      response: { 200: Ref<SandboxClock>('SandboxClock') },
    },
  }),
  advanceSandboxClock: declareWrite({
    method: 'POST',
    path: '/v1/sandbox/clock/advance',
    permission: needs('sandbox', 'write'),
    schema: {
      operationId: 'advanceSandboxClock',
      'x-plinth-sdk': { resource: 'sandbox', method: 'advanceClock' },
      tags: [TAG],
      summary: "Sandbox: move the org's clock forward",
      description:
        'Runs, in time order, everything due up to `to` (ACH submissions at the cut-off, settlements, payment ' +
        "rules' outcomes, pending transfers' expiries), each written with its due moment as its time and its events " +
        'in that order; then the clock reads `to`, and the answer is the clock. Sandbox keys only.',
      'x-problems': ['permission_denied', 'parameter_invalid'],
      body: ClockAdvanceBody,
      response: { 200: Ref<SandboxClock>('SandboxClock') },
    },
  }),
};

export interface ClockRouteDeps extends ClockDeps {
  db: Db;
  withIdempotency: WithIdempotency;
}

const sandboxOnly = (owner: Principal) =>
  requireSandbox(owner, 'The sandbox clock needs a sandbox key (sk_test_…); live mode runs on real time.');

const clockView = (nowMs: number, offsetMs: number): SandboxClock => ({
  object: 'sandbox.clock',
  now: new Date(nowMs).toISOString(),
  offset_seconds: Math.floor(offsetMs / 1000),
});

async function clockOf(deps: Pick<ClockRouteDeps, 'db' | 'clock'>, orgId: string): Promise<SandboxClock> {
  const { offsetMs } = await clockRowOf(deps.db, orgId);
  return clockView(deps.clock().getTime() + offsetMs, offsetMs);
}

/**
 * An advance is not one write: its own write (through the idempotency step) checks `to` and sets it as the clock's
 * target; what is due up to it then runs in writes of its own (due.ts, `after`), before the answer is sent, and
 * should the process stop first, the clock's background pass finishes it. The answer is the clock at `to`.
 */
export function clockRoutes(app: FastifyInstance, deps: ClockRouteDeps): void {
  app.addSchema(SandboxClock);
  declareOperations(app, deps, [
    implement(clockOps.retrieveSandboxClock, {
      read: (owner) => {
        sandboxOnly(owner);
        return clockOf(deps, owner.orgId);
      },
    }),
    implement(clockOps.advanceSandboxClock, {
      write: async (ctx, input) => {
        sandboxOnly(ctx.owner);
        const to = parseTime('to', input.body.to).at;
        const now = ctx.now.getTime();
        if (to < now)
          throw new ApiError(
            'parameter_invalid',
            `to must not be earlier than the sandbox clock, now ${ctx.now.toISOString()}.`,
            { param: 'to' },
          );
        if (to - now > MAX_ADVANCE_MS)
          throw new ApiError('parameter_invalid', 'to must be at most ten years after the sandbox clock now.', {
            param: 'to',
          });
        await setTarget(ctx.trx, ctx.owner.orgId, to);
        return clockView(to, to - deps.clock().getTime());
      },
      after: async (owner) => {
        if (owner.mode === 'sandbox') await runDue(deps, owner.orgId, null);
      },
    }),
  ]);
}
