import type { Mode } from '../../platform/auth/principal.ts';

export interface WebhookEndpointsTable {
  id: string;
  org_id: string;
  mode: Mode;
  url: string;
  /** JSON array of event types, or `["*"]`. */
  enabled_events: string;
  description: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: 'manual' | 'gone' | 'failing' | null;
  /** The signing secret, sealed (webhooks/signing-secrets.ts); never stored in the clear. */
  secret: string;
  /** After a rotation, the previous secret, which keeps signing until previous_expires_at. */
  previous_secret: string | null;
  previous_expires_at: string | null;
  /** When the current run of failed attempts began; null after any success. */
  failing_since: string | null;
  /** The integrator's own key-value pairs, as JSON (modules/metadata); `{}` when none. */
  metadata: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  org_id: string;
  mode: Mode;
  endpoint_id: string;
  event_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  /** JSON array of attempts, in the API's shape but with full-precision times. */
  attempts: string;
  /** Attempts made by the schedule (a manual retry is outside it): the position in WEBHOOK_RETRY_SCHEDULE. */
  scheduled_attempts: number;
  /** 1 when the next attempt is a manual retry. */
  manual: number;
  /** When a worker may claim it; while claimed, when the lease ends (a crashed worker's row comes back then). */
  next_attempt_at: string | null;
  /** The token of the worker attempt holding the lease; its result is recorded only while it still holds it. */
  claim: string | null;
  created_at: string;
}

/** The columns that say where a delivery stands: what an attempt's result rewrites (and a new row starts with). */
export const DELIVERY_STATE_COLUMNS = {
  status: true,
  attempts: true,
  scheduled_attempts: true,
  manual: true,
  next_attempt_at: true,
  claim: true,
} as const;

declare module '../../db/tables.ts' {
  interface Tables {
    webhook_endpoints: WebhookEndpointsTable;
    webhook_deliveries: WebhookDeliveriesTable;
  }
}
