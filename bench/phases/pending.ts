/**
 * What holding money costs (issue 24: a pending transfer, and the post of one, within 10% of a plain transfer's
 * throughput), on one fresh Plinth, around a ring of funded accounts (transfers of 1 minor unit, a fresh
 * Idempotency-Key each, as the PostgreSQL transfer load):
 *
 * 1. plain transfers and pending ones (`pending: true`), in the order plain, pending, pending, plain (ABBA: a machine
 *    getting busier or quieter weighs on both sides alike); each side's figure is the mean of its two loads;
 * 2. pending transfers for the posts, not measured: those the pending loads made, and more until there are enough for
 *    posts at 1.5× the plain transfers' rate, listed through the API;
 * 3. plain transfers and posts (`POST /v1/fintech/transfers/{id}/post`, whole, each a distinct pending transfer), again
 *    plain, post, post, plain.
 *
 * Loads of BENCH_PENDING_SECONDS (5 s) each: eight of them, on SQLite and on PostgreSQL, about 1.5 minutes in all.
 */
import { join } from 'node:path';
import { abba } from '../lib/abba.ts';
import { CONNECTIONS, type Load, loadPosts, loadTransferRing } from '../lib/load.ts';
import { fundedAccounts, type Plinth, startPlinth } from '../lib/plinth.ts';
import { stop } from '../lib/process.ts';

export const PENDING_SECONDS = Number(process.env.BENCH_PENDING_SECONDS ?? 5);
/** Accounts of the ring: as the PostgreSQL transfer load, so that transfers do not all wait for the same two rows. */
const RING = 8;
/** Posts are assumed at most this much quicker than plain transfers when pending ones are made for them. */
const POST_HEADROOM = 1.5;

export interface PendingResults {
  /** Plain transfers against pending ones (step 1). */
  plain: Load;
  pending: Load;
  /** Plain transfers against posts (step 3). */
  plainAgain: Load;
  post: Load;
  /** Pending / plain and post / plain, each the ratio of their throughputs. */
  pendingRatio: number;
  postRatio: number;
  /** Pending transfers there were to post, and the seconds it took to make the missing ones and list them. */
  posts: { ready: number; seconds: number };
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Every pending transfer of the key's org, through the list (100 a page). */
async function pendingIds(server: Plinth): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const after = ids.length > 0 ? `&starting_after=${ids.at(-1)}` : '';
    const response = await fetch(
      `http://127.0.0.1:${server.port}/v1/fintech/transfers?status=pending&limit=100${after}`,
      { headers: { authorization: server.authorization } },
    );
    if (response.status !== 200) throw new Error(`list answered ${response.status}: ${await response.text()}`);
    const page = (await response.json()) as { data: { id: string }[]; has_more: boolean };
    ids.push(...page.data.map((t) => t.id));
    if (!page.has_more) return ids;
  }
}

/** Step 2: enough pending transfers for two post loads, made (not measured) and listed. */
async function readyToPost(server: Plinth, ring: string[], plainRps: number) {
  const started = performance.now();
  const wanted = Math.ceil(2 * PENDING_SECONDS * plainRps * POST_HEADROOM);
  let ids = await pendingIds(server);
  if (ids.length < wanted) {
    const amount = Math.max(wanted - ids.length, CONNECTIONS);
    log(`${amount} more pending transfers to post (not measured)`);
    await loadTransferRing(server.port, server.authorization, ring, { pending: true }, { amount });
    ids = await pendingIds(server);
  }
  return { ids, seconds: (performance.now() - started) / 1000 };
}

/** Steps 1 to 3 on a Plinth already running; `label` names the backend in the log. */
export async function pendingLoads(server: Plinth, label: string): Promise<PendingResults> {
  const ring = await fundedAccounts(server, RING);
  const limit = { seconds: PENDING_SECONDS };
  const plain = () => loadTransferRing(server.port, server.authorization, ring, {}, limit);
  const created = await abba(
    [`${label}: plain transfers`, plain],
    [
      `${label}: pending transfers`,
      () => loadTransferRing(server.port, server.authorization, ring, { pending: true }, limit),
    ],
  );
  const { ids, seconds } = await readyToPost(server, ring, created.a.rps);
  let next = 0;
  const posted = await abba(
    [`${label}: plain transfers`, plain],
    [
      `${label}: posts of pending transfers`,
      () => loadPosts(server.port, server.authorization, () => ids[next++], limit),
    ],
  );
  return {
    plain: created.a,
    pending: created.b,
    plainAgain: posted.a,
    post: posted.b,
    pendingRatio: created.b.rps / created.a.rps,
    postRatio: posted.b.rps / posted.a.rps,
    posts: { ready: ids.length, seconds },
  };
}

/** The phase on a fresh Plinth of its own: SQLite (a new file in `dir`), or PostgreSQL at a setting of its phase. */
export async function pendingPhase(options: {
  databaseUrl?: string;
  dir: string;
  workers?: number;
  pool?: number;
}): Promise<PendingResults> {
  const { dir, workers, pool } = options;
  const databaseUrl = options.databaseUrl ?? `sqlite:${join(dir, 'pending.db')}`;
  const label = databaseUrl.startsWith('sqlite') ? 'Plinth SQLite' : `Plinth PostgreSQL (${workers} worker(s))`;
  const server = await startPlinth({
    databaseUrl,
    dir,
    name: databaseUrl.startsWith('sqlite') ? 'sqlite-pending' : 'pg-pending',
    workers,
    env: pool === undefined ? {} : { DATABASE_POOL_SIZE: String(pool) },
  });
  try {
    return await pendingLoads(server, label);
  } finally {
    await stop(server);
  }
}
