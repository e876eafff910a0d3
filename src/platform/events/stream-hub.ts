import type { Db } from '../../db/database.ts';
import { activeKeyIds } from '../auth/credentials.repository.ts';
import type { Mode } from '../auth/principal.ts';
import { lastSequences } from './events.repository.ts';

/** One open stream as the hub sees it (docs/api.md#the-live-event-stream). */
export interface Watcher {
  orgId: string;
  mode: Mode;
  keyId: string;
  /** The owner's counter stands at `last`: read what is new up to it (a stream ignores a number it has passed). */
  wake(last: number): void;
  /** Its key was revoked, or the server is shutting down: end the response. */
  end(why: 'revoked' | 'shutdown'): void;
}

export interface StreamHub {
  /** Registers a stream; false when its org and mode already hold `perOrg` in this process. */
  add(watcher: Watcher): boolean;
  remove(watcher: Watcher): void;
  /** Something committed in this process: look now (coalesced) rather than at the next poll. */
  poke(): void;
  /** Ends every stream (SIGTERM): their clients reconnect with Last-Event-ID, elsewhere or later. */
  closeAll(): void;
}

/**
 * Wakes the open streams of this process, holding no database connection between looks. A look is two small
 * indexed reads whatever the number of streams: the counters of the orgs that have one (event_sequences), and which
 * of their keys are still active. It runs when this process commits (`poke`) and every `pollMs` while a stream is
 * open, which is how events numbered by another process (PostgreSQL) and revocations reach the stream. Only a stream
 * whose counter moved reads events. Looks never overlap and are at least `spacingMs` apart, so a burst of writes
 * costs a few looks, not one per write.
 */
export function streamHub(db: Db, options: { perOrg: number; pollMs: number; spacingMs?: number }): StreamHub {
  const watchers = new Set<Watcher>();
  let timer: NodeJS.Timeout | undefined;
  let looking = false;
  let again = false;
  let lastLook = 0;
  const spacingMs = options.spacingMs ?? 20;

  async function look(): Promise<void> {
    if (watchers.size === 0) return;
    const all = [...watchers];
    const [counters, active] = await Promise.all([
      lastSequences(db, [...new Set(all.map((w) => w.orgId))]),
      activeKeyIds(db, [...new Set(all.map((w) => w.keyId))]),
    ]);
    for (const watcher of all) {
      if (!watchers.has(watcher)) continue;
      if (!active.has(watcher.keyId)) {
        watchers.delete(watcher);
        watcher.end('revoked');
      } else watcher.wake(counters.get(`${watcher.orgId}\n${watcher.mode}`) ?? 0);
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
      timer = undefined;
    }
  }

  return {
    add(watcher) {
      let same = 0;
      for (const w of watchers) if (w.orgId === watcher.orgId && w.mode === watcher.mode) same++;
      if (same >= options.perOrg) return false;
      watchers.add(watcher);
      timer ??= setInterval(poke, options.pollMs).unref();
      return true;
    },
    remove(watcher) {
      watchers.delete(watcher);
      stopPollingIfIdle();
    },
    poke,
    closeAll() {
      const all = [...watchers];
      watchers.clear();
      stopPollingIfIdle();
      for (const watcher of all) watcher.end('shutdown');
    },
  };
}
