import type { Migration } from 'kysely';
import * as m20261121T1200 from './2026-11-21T1200_orgs_keys_accounts.ts';
import * as m20261121T1300 from './2026-11-21T1300_org_display_name.ts';
import * as m20261121T1400 from './2026-11-21T1400_idempotency_keys.ts';
import * as m20261122T1100 from './2026-11-22T1100_api_key_name_last_used.ts';
import * as m20261122T1100e from './2026-11-22T1100_events_webhooks.ts';
import * as m20261123T0900 from './2026-11-23T0900_events_retention_by_id.ts';
import * as m20261124T1200 from './2026-11-24T1200_idempotency_without_claims.ts';
import * as m20261124T1300 from './2026-11-24T1300_events_numbered_by_sequencer.ts';
import * as m20261124T1400 from './2026-11-24T1400_lists_in_commit_order.ts';
import * as m20261125T0050 from './2026-11-25T0050_metadata.ts';
import * as m20261125T0200 from './2026-11-25T0200_secret_key_checks.ts';
import * as m20261126T1000 from './2026-11-26T1000_events_request_id.ts';
import * as m20261126T1200 from './2026-11-26T1200_restricted_keys.ts';
import * as m20261128T0200 from './2026-11-28T0200_idempotency_scope_api_key.ts';
import * as m20261128T0500 from './2026-11-28T0500_sandbox_clocks.ts';
import * as m20261128T0900 from './2026-11-28T0900_event_chain.ts';

/**
 * The core's migrations (orgs and keys, idempotency, the outbox's events, secrets) and those that touch several
 * modules' tables at once; a module's own are in its migrations/ folder. Listed explicitly (not read from the folder)
 * so that the set of migrations is visible and type-checked.
 */
export const PLATFORM_MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T1200_orgs_keys_accounts': m20261121T1200,
  '2026-11-21T1300_org_display_name': m20261121T1300,
  '2026-11-21T1400_idempotency_keys': m20261121T1400,
  '2026-11-22T1100_api_key_name_last_used': m20261122T1100,
  '2026-11-22T1100_events_webhooks': m20261122T1100e,
  '2026-11-23T0900_events_retention_by_id': m20261123T0900,
  '2026-11-24T1200_idempotency_without_claims': m20261124T1200,
  '2026-11-24T1300_events_numbered_by_sequencer': m20261124T1300,
  '2026-11-24T1400_lists_in_commit_order': m20261124T1400,
  '2026-11-25T0050_metadata': m20261125T0050,
  '2026-11-25T0200_secret_key_checks': m20261125T0200,
  '2026-11-26T1000_events_request_id': m20261126T1000,
  '2026-11-26T1200_restricted_keys': m20261126T1200,
  '2026-11-28T0200_idempotency_scope_api_key': m20261128T0200,
  '2026-11-28T0500_sandbox_clocks': m20261128T0500,
  '2026-11-28T0900_event_chain': m20261128T0900,
};
