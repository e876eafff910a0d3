/** `sandbox` keys act on test data, `live` keys on live data; every object belongs to one mode. */
export type Mode = 'sandbox' | 'live';

/** Who a request acts for: resolved from its Bearer key. Every product scopes its reads and writes by it. */
export interface Principal {
  orgId: string;
  mode: Mode;
  keyId: string;
}
