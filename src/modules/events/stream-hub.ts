import type { Db } from '../../db/database.ts';
import { activeKeyIds } from '../../platform/auth/credentials.repository.ts';
import type { Mode } from '../../platform/auth/principal.ts';
import { eventsAfter, lastSequences } from './events.repository.ts';
import { RENEW_MS, type StreamLeases } from './stream-leases.ts';

/** A read of the owner's events after a number (events.repository.ts `eventsAfter`, bound to the owner). */
export type ReadAfter = (range: Parameters<typeof eventsAfter>[2], take: number) => ReturnType<typeof eventsAfter>;

/** One open stream as the hub sees it (docs/api.md#the-live-event-stream). */
export interface Watcher {
  orgId: string;
  mode: Mode;
  keyId: string;
  /**
   * The owner's counter stands at `last`: read what is new up to it (a stream ignores a number it has passed), with
   * `read`, which streams of one owner share during a look: caught-up streams ask the same question, asked once.
   */
  wake(last: number, read: ReadAfter): void;
  /** Its key was revoked, or the server is shutting down: end the response. */
  end(why: 'revoked' | 'shutdown'): void;
}

export interface StreamHub {
  /**
   * Registers a stream, with a lease that counts it in every process; false when its org and mode already hold
   * `perOrg` open streams across all of them.
   */
  add(watcher: Watcher): Promise<boolean>;
  /** Unregisters it and gives its lease back (harmless twice). */
  remove(watcher: Watcher): void;
  /** Something committed in this process: look now (coalesced) rather than at the next poll. */
  poke(): void;
  /** Ends every stream (SIGTERM): their clients reconnect with Last-Event-ID, elsewhere or later. */
  closeAll(): void;
}

/**
 * Wakes the open streams of this process, holding no database connection between looks. A look is two small
 * indexed reads whatever the number of streams: the counters of the orgs that have one (event_sequences), and (once
 * per poll) which of their keys are still active. It runs when this process commits (`poke`) and every `pollMs` while a stream is
 * open, which is how events numbered by another process (PostgreSQL) and revocations reach the stream. Only a stream
 * whose counter moved reads events, and streams of one owner at the same point share one read. Looks never overlap and are at least `spacingMs` apart, so a burst of writes
 * costs a few looks, not one per write.
 */
export function streamHub(
  db: Db,
  leases: StreamLeases,
  options: { perOrg: number; pollMs: number; spacingMs?: number },
): StreamHub {
  const watchers = new Set<Watcher>();
  const leaseOf = new Map<Watcher, string>();
  let timer: NodeJS.Timeout | undefined;
  let renewing: NodeJS.Timeout | undefined;
  let looking = false;
  let again = false;
  let lastLook = 0;
  let lastKeyCheck = 0;
  const spacingMs = options.spacingMs ?? 50;

  async function look(): Promise<void> {
    if (watchers.size === 0) return;
    const all = [...watchers];
    // Keys are looked at once per poll, not on every commit's look: a revocation is still seen within the second.
    const checkKeys = Date.now() - lastKeyCheck >= options.pollMs;
    if (checkKeys) lastKeyCheck = Date.now();
    const [counters, active] = await Promise.all([
      lastSequences(db, [...new Set(all.map((w) => w.orgId))]),
      checkKeys ? activeKeyIds(db, [...new Set(all.map((w) => w.keyId))]) : null,
    ]);
    const asked = new Map<string, ReturnType<typeof eventsAfter>>();
    for (const watcher of all) {
      if (!watchers.has(watcher)) continue;
      if (active !== null && !active.has(watcher.keyId)) {
        forget(watcher);
        watcher.end('revoked');
        continue;
      }
      const owner = { orgId: watcher.orgId, mode: watcher.mode };
      const read: ReadAfter = (range, take) => {
        const question = `${owner.orgId}\n${owner.mode}\n${range.after}\n${range.upTo}\n${range.type}\n${take}`;
        if (!asked.has(question)) asked.set(question, eventsAfter(db, owner, range, take));
        return asked.get(question)!;
      };
      watcher.wake(counters.get(`${owner.orgId}\n${owner.mode}`) ?? 0, read);
    }
  }

  async function loop(): Promise<void> {
    looking = true;
    while (again) {
      again = false;
      const wait = lastLook + spacingMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastLook = Date.now();
      // A failed look (the database restarting) is retried by the next poll; the streams stay open meanwhile.
      await look().catch(() => {});
    }
    looking = false;
  }

  function poke(): void {
    if (watchers.size === 0) return;
    again = true;
    if (!looking) void loop();
  }

  function stopPollingIfIdle(): void {
    if (watchers.size === 0 && timer !== undefined) {
      clearInterval(timer);
      clearInterval(renewing);
      timer = undefined;
      renewing = undefined;
    }
  }

  // A lease not given back (the database was away) simply runs out: it is no longer renewed.
  function forget(watcher: Watcher): void {
    watchers.delete(watcher);
    const lease = leaseOf.get(watcher);
    leaseOf.delete(watcher);
    if (lease !== undefined) leases.release([lease]).catch(() => {});
    stopPollingIfIdle();
  }

  return {
    async add(watcher) {
      let same = 0;
      for (const w of watchers) if (w.orgId === watcher.orgId && w.mode === watcher.mode) same++;
      if (same >= options.perOrg) return false;
      const lease = await leases.take(watcher, options.perOrg);
      if (lease === null) return false;
      watchers.add(watcher);
      leaseOf.set(watcher, lease);
      timer ??= setInterval(poke, options.pollMs).unref();
      renewing ??= setInterval(() => leases.renew([...leaseOf.values()]).catch(() => {}), RENEW_MS).unref();
      return true;
    },
    remove: forget,
    poke,
    closeAll() {
      const all = [...watchers];
      for (const watcher of all) forget(watcher);
      for (const watcher of all) watcher.end('shutdown');
    },
  };
}
