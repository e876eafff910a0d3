import type { Mode } from '../../../platform/auth/principal.ts';

/**
 * How one process shares its WEBHOOK_CONCURRENCY attempt slots (docs/api.md, "Delivery policy"). An attempt to an
 * endpoint that accepts the connection and never answers holds its slot for the whole timeout, so slots, not
 * deliveries, are what a tenant could take from the others:
 *
 * - `sandbox`: sandbox attempts may hold at most this many slots; the rest (a quarter) are live's alone.
 * - `perOrg`: attempts of one organisation and mode in flight at once, across every process (claimed rows whose
 *   lease has not ended, counted in the database).
 * - `reserve`: slots kept for organisations with nothing in flight. An organisation that already has attempts in
 *   flight takes a slot only while this many stay free in its mode, so that an organisation that shows up next finds
 *   one at once, however many endpoints and events the busy ones have.
 */
export interface Limits {
  concurrency: number;
  sandbox: number;
  perOrg: Record<Mode, number>;
  reserve: number;
}

export function limitsFor(concurrency: number): Limits {
  const reserve = Math.ceil(concurrency / 4);
  const sandbox = Math.max(1, concurrency - reserve);
  return {
    concurrency,
    sandbox,
    perOrg: { live: Math.max(1, concurrency - reserve), sandbox: Math.max(1, sandbox - reserve) },
    reserve,
  };
}

/** An endpoint with due deliveries, as the claim read sees it. */
export interface Head {
  endpointId: string;
  orgId: string;
  /** Its last attempt failed (`failing_since` is set): one attempt at a time until one succeeds. */
  failing: boolean;
  /** Due deliveries, counted up to the most that could be claimed at once. */
  due: number;
  /** When its oldest due delivery became due. */
  dueAt: string;
}

/** Attempts in flight (claimed, lease not over) by organisation and by endpoint, in one mode. */
export interface InFlight {
  orgs: Map<string, number>;
  endpoints: Map<string, number>;
}

interface Slots {
  /** Attempts this claim may start (fewer than `free` while the API is busy). */
  take: number;
  /** Slots of this mode free in this process. */
  free: number;
}

/**
 * Which due deliveries one claim takes in one mode, as a count per endpoint. Slot by slot: the organisation with the
 * fewest attempts in flight, then the one served least recently (`served`: a serial per organisation, higher is
 * later, -1 for never), then the oldest due; within it, the endpoint with the fewest in flight, then the oldest
 * due. The organisations served are returned in order, for the caller to record.
 */
export function allocate(
  heads: Head[],
  inFlight: InFlight,
  slots: Slots,
  perOrg: number,
  reserve: number,
  served: (org: string) => number,
): { take: Map<string, number>; served: string[] } {
  const byOrg = new Map<string, Head[]>();
  for (const head of heads) if (head.due > 0) byOrg.set(head.orgId, [...(byOrg.get(head.orgId) ?? []), head]);
  const orgs = new Map(inFlight.orgs);
  const endpoints = new Map(inFlight.endpoints);
  const due = new Map(heads.map((h) => [h.endpointId, h.due]));
  const take = new Map<string, number>();
  const order: string[] = [];
  let { take: left, free } = slots;
  while (left > 0 && free > 0) {
    let best: { org: string; head: Head; key: [number, number, string] } | undefined;
    for (const [org, heads] of byOrg) {
      const n = orgs.get(org) ?? 0;
      if (n >= perOrg || (n > 0 && free - 1 < reserve)) continue;
      const head = pickEndpoint(heads, endpoints, due, perOrg);
      if (head === undefined) continue;
      const key: [number, number, string] = [n, served(org), head.dueAt];
      if (best === undefined || before(key, best.key)) best = { org, head, key };
    }
    if (best === undefined) break;
    const id = best.head.endpointId;
    orgs.set(best.org, (orgs.get(best.org) ?? 0) + 1);
    endpoints.set(id, (endpoints.get(id) ?? 0) + 1);
    due.set(id, due.get(id)! - 1);
    take.set(id, (take.get(id) ?? 0) + 1);
    order.push(best.org);
    left--;
    free--;
  }
  return { take, served: order };
}

/** Within one organisation: a due endpoint under its bound, the fewest in flight first, then the oldest due. */
function pickEndpoint(heads: Head[], endpoints: Map<string, number>, due: Map<string, number>, perOrg: number) {
  let best: Head | undefined;
  for (const head of heads) {
    const n = endpoints.get(head.endpointId) ?? 0;
    if (due.get(head.endpointId)! <= 0 || n >= (head.failing ? 1 : perOrg)) continue;
    if (best === undefined || before([n, head.dueAt], [endpoints.get(best.endpointId) ?? 0, best.dueAt])) best = head;
  }
  return best;
}

function before(a: (number | string)[], b: (number | string)[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}
