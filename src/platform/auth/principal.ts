import type { KeyPermissions } from './permissions.ts';

/** `sandbox` keys act on test data, `live` keys on live data; every object belongs to one mode. */
export type Mode = 'sandbox' | 'live';

/** Who a request acts for: resolved from its Bearer key. Every product scopes its reads and writes by it. */
export interface Principal {
  orgId: string;
  mode: Mode;
  keyId: string;
  /** The key's display hint (`sk_test_…a1B2`), for records that name the key without holding it (the request log). */
  keyHint: string;
  /** A restricted key's permissions; null for a full key, which may call every operation of its org and mode. */
  permissions: KeyPermissions | null;
}
