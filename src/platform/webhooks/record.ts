import type { Trx } from '../../db/database.ts';
import { storedTime } from '../kit/time.ts';
import type { AttemptResult } from './attempt.ts';
import * as deliveries from './deliveries.repository.ts';
import * as endpoints from './endpoints.repository.ts';
import { nextDelay, retryAfterMs } from './schedule.ts';
import type { WebhookDeliveriesTable } from './tables.ts';

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
 */
export async function recordAttempt(
  trx: Trx,
  claimed: { id: string; endpointId: string; token: string },
  result: AttemptResult,
  at: Date,
  schedule: number[],
): Promise<Outcome> {
  const row = await deliveries.findClaimed(trx, claimed.id, claimed.token);
  if (row === undefined) return 'lost';
  const attempt: StoredAttempt = {
    attempted_at: storedTime(at),
    response_status: result.status,
    duration_ms: result.durationMs,
    error: result.error,
  };
  const attempts = JSON.stringify([...(JSON.parse(row.attempts) as StoredAttempt[]), attempt]);
  const made = row.manual === 1 ? row.scheduled_attempts : row.scheduled_attempts + 1;
  const settle = (status: WebhookDeliveriesTable['status'], next: string | null) =>
    deliveries.updateDelivery(trx, row.id, {
      status,
      attempts,
      scheduled_attempts: made,
      manual: 0,
      next_attempt_at: next,
      claim: null,
    });
  const now = storedTime(at);
  if (result.status !== null && result.status >= 200 && result.status < 300) {
    await settle('succeeded', null);
    await endpoints.updateEndpoint(trx, claimed.endpointId, { failing_since: null });
    return 'succeeded';
  }
  if (result.status === 410) {
    await settle('failed', null);
    await disable(trx, claimed.endpointId, 'gone');
    return 'gone';
  }
  const endpoint = await endpoints.findEndpointById(trx, claimed.endpointId);
  const failingSince = endpoint?.failing_since ?? now;
  if (endpoint?.failing_since === null) await endpoints.updateEndpoint(trx, claimed.endpointId, { failing_since: now });
  if (at.getTime() - Date.parse(failingSince) >= FAILING_DISABLE_MS) {
    await settle('failed', null);
    await disable(trx, claimed.endpointId, 'failing');
    return 'failed';
  }
  const delay = nextDelay(schedule, Math.max(made, 1), retryAfterMs(result.retryAfter, at.getTime()));
  if (delay === null) {
    await settle('failed', null);
    return 'failed';
  }
  await settle('pending', storedTime(new Date(at.getTime() + delay)));
  return 'retrying';
}

async function disable(trx: Trx, endpointId: string, reason: 'gone' | 'failing'): Promise<void> {
  await endpoints.updateEndpoint(trx, endpointId, { status: 'disabled', disabled_reason: reason });
  await endpoints.failPendingDeliveries(trx, endpointId);
}
