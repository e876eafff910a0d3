import type { Trx } from '../../../db/database.ts';
import { storedTime } from '../../../platform/kit/time.ts';
import * as deliveries from '../api/deliveries.repository.ts';
import * as endpoints from '../api/endpoints.repository.ts';
import type { WebhookDeliveriesTable } from '../tables.ts';
import type { AttemptResult } from './attempt.ts';
import { nextDelay, retryAfterMs } from './schedule.ts';

/** An endpoint whose every attempt has failed for this long is disabled (`failing`). */
export const FAILING_DISABLE_MS = 5 * 86_400_000;

export interface StoredAttempt {
  attempted_at: string;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
}

/** `gone`: it answered 410. `lost`: the lease ended before the result came back, so another claim owns it now. */
export type Outcome = 'succeeded' | 'retrying' | 'failed' | 'gone' | 'lost';

/**
 * Records one attempt's result in its own write, if this worker still holds the lease: 2xx succeeds; 410 fails the
 * delivery and disables the endpoint (`gone`); anything else is retried on the schedule (or after Retry-After, up
 * to an hour) until it is spent. A manual retry is outside the schedule: it does not use up a scheduled retry.
 * `cleared`: the endpoints a success already cleared of `failing_since` in this write (the results of one round are
 * recorded together), so that a round of many successes to one endpoint writes the endpoint once, not once each.
 */
export async function recordAttempt(
  trx: Trx,
  claimed: WebhookDeliveriesTable,
  token: string,
  result: AttemptResult,
  at: Date,
  schedule: number[],
  cleared: Set<string> = new Set(),
): Promise<Outcome> {
  const attempt: StoredAttempt = {
    attempted_at: storedTime(at),
    response_status: result.status,
    duration_ms: result.durationMs,
    error: result.error,
  };
  // While the lease holds nobody else writes the row, so the claimed copy's attempts are current.
  const attempts = JSON.stringify([...(JSON.parse(claimed.attempts) as StoredAttempt[]), attempt]);
  const made = claimed.manual === 1 ? claimed.scheduled_attempts : claimed.scheduled_attempts + 1;
  const settle = (status: WebhookDeliveriesTable['status'], next: string | null) =>
    deliveries.settleClaimed(trx, claimed.id, token, {
      status,
      attempts,
      scheduled_attempts: made,
      manual: 0,
      next_attempt_at: next,
      claim: null,
    });
  const endpointId = claimed.endpoint_id;
  if (result.status !== null && result.status >= 200 && result.status < 300) {
    if (!(await settle('succeeded', null))) return 'lost';
    if (!cleared.has(endpointId)) await endpoints.clearFailing(trx, endpointId);
    cleared.add(endpointId);
    return 'succeeded';
  }
  if (result.status === 410) {
    if (!(await settle('failed', null))) return 'lost';
    await disable(trx, endpointId, 'gone');
    return 'gone';
  }
  cleared.delete(endpointId); // failing now: a success recorded after this one in the same write clears it again
  return recordFailure(trx, endpointId, at, settle, () =>
    nextDelay(schedule, Math.max(made, 1), retryAfterMs(result.retryAfter, at.getTime())),
  );
}

/** A failed attempt: retried on the schedule, unless it is spent or the endpoint has failed for 5 days. */
async function recordFailure(
  trx: Trx,
  endpointId: string,
  at: Date,
  settle: (status: WebhookDeliveriesTable['status'], next: string | null) => Promise<boolean>,
  delay: () => number | null,
): Promise<Outcome> {
  const now = storedTime(at);
  const endpoint = await endpoints.findEndpointById(trx, endpointId);
  const failingSince = endpoint?.failing_since ?? now;
  if (at.getTime() - Date.parse(failingSince) >= FAILING_DISABLE_MS) {
    if (!(await settle('failed', null))) return 'lost';
    await disable(trx, endpointId, 'failing');
    return 'failed';
  }
  const wait = delay();
  const settled = await settle(
    wait === null ? 'failed' : 'pending',
    wait === null ? null : storedTime(new Date(at.getTime() + wait)),
  );
  if (!settled) return 'lost';
  if (endpoint?.failing_since === null) await endpoints.updateEndpoint(trx, endpointId, { failing_since: now });
  return wait === null ? 'failed' : 'retrying';
}

async function disable(trx: Trx, endpointId: string, reason: 'gone' | 'failing'): Promise<void> {
  await endpoints.updateEndpoint(trx, endpointId, { status: 'disabled', disabled_reason: reason });
  await endpoints.failPendingDeliveries(trx, endpointId);
}
