/**
 * What holding money costs (issue 24: a pending transfer, and the post of one, within 10% of a plain transfer's
 * throughput), on one fresh Plinth, around a ring of funded accounts (transfers of 1 minor unit, a fresh
 * Idempotency-Key each, as the PostgreSQL transfer load):
 *
 * 1. plain transfers and pending ones (`pending: true`), in the order plain, pending, pending, plain (ABBA: a machine
 *    getting busier or quieter weighs on both sides alike); each side's figure is the mean of its two loads;
 * 2. pending transfers for the posts, not measured: those the pending loads made, and more until there are enough for
 *    posts at 2.5× step 1's rate (POST_HEADROOM), listed through the API;
 * 3. plain transfers and posts (`POST /v1/fintech/transfers/{id}/post`, whole, each a distinct pending transfer), again
 *    plain, post, post, plain.
 *
 * Loads of BENCH_PENDING_SECONDS (4 s) each: eight of them, on SQLite and on PostgreSQL, about 1.5 minutes in all.
 */
import { join } from 'node:path';
import { abba } from '../lib/abba.ts';
import { type CpuShare, watchCpu } from '../lib/cpu.ts';
import { CONNECTIONS, type Load, loadPosts, loadTransferRing } from '../lib/load.ts';
import { fundedAccounts, type Plinth, startPlinth } from '../lib/plinth.ts';
import { stop } from '../lib/process.ts';

export const PENDING_SECONDS = Number(process.env.BENCH_PENDING_SECONDS ?? 4);
/** Accounts of the ring: as the PostgreSQL transfer load, so that transfers do not all wait for the same two rows. */
const RING = 8;
/**
 * Pending transfers are made for posts at this many times the quicker side of step 1: posts may be quicker than
 * transfers, and the machine quieter by step 3 (measured: plain transfers 540 req/s in step 1, 951 in step 3, posts
 * 1,340, when 1.5× ran out). A post load that runs out posts a transfer that does not exist: its 404s are counted as
 * non-2xx, and the target fails rather than pass on cheap answers.
 */
const POST_HEADROOM = 2.5;

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
  /** CPU ms per request of the server (and of PostgreSQL's backends for it), each side the mean of its two loads. */
  cpu: Record<Side, CpuShare>;
  /** Pending transfers there were to post, and the seconds it took to make the missing ones and list them. */
  posts: { ready: number; seconds: number };
}

type Side = 'plain' | 'pending' | 'plainAgain' | 'post';

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

const meanCpu = (shares: CpuShare[]): CpuShare => {
  const sum = (f: (c: CpuShare) => number | null) => shares.reduce((t, c) => t + (f(c) ?? 0), 0) / shares.length;
  return { server: sum((c) => c.server), postgres: shares[0]?.postgres === null ? null : sum((c) => c.postgres) };
};

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
async function readyToPost(server: Plinth, ring: string[], rps: number) {
  const started = performance.now();
  const wanted = Math.ceil(2 * PENDING_SECONDS * rps * POST_HEADROOM);
  let ids = await pendingIds(server);
  if (ids.length < wanted) {
    const amount = Math.max(wanted - ids.length, CONNECTIONS);
    log(`${amount} more pending transfers to post (not measured)`);
    await loadTransferRing(server.port, server.authorization, ring, { pending: true }, { amount });
    ids = await pendingIds(server);
  }
  return { ids, seconds: (performance.now() - started) / 1000 };
}

/** Steps 1 to 3 on a Plinth already running (on `databaseUrl`); `label` names the backend in the log. */
export async function pendingLoads(server: Plinth, databaseUrl: string, label: string): Promise<PendingResults> {
  const ring = await fundedAccounts(server, RING);
  const limit = { seconds: PENDING_SECONDS };
  const shares: Record<Side, CpuShare[]> = { plain: [], pending: [], plainAgain: [], post: [] };
  const counted = (side: Side, load: () => Promise<Load>) => async () => {
    const cpu = await watchCpu(server.child.pid!, databaseUrl.startsWith('postgres') ? databaseUrl : undefined);
    const measured = await load();
    shares[side].push(await cpu(measured.ok + measured.non2xx));
    return measured;
  };
  const plain = () => loadTransferRing(server.port, server.authorization, ring, {}, limit);
  const pending = () => loadTransferRing(server.port, server.authorization, ring, { pending: true }, limit);
  const created = await abba(
    [`${label}: plain transfers`, counted('plain', plain)],
    [`${label}: pending transfers`, counted('pending', pending)],
  );
  const { ids, seconds } = await readyToPost(server, ring, Math.max(created.a.rps, created.b.rps));
  let next = 0;
  const posts = () => loadPosts(server.port, server.authorization, () => ids[next++], limit);
  const posted = await abba(
    [`${label}: plain transfers`, counted('plainAgain', plain)],
    [`${label}: posts of pending transfers`, counted('post', posts)],
  );
  return {
    plain: created.a,
    pending: created.b,
    plainAgain: posted.a,
    post: posted.b,
    pendingRatio: created.b.rps / created.a.rps,
    postRatio: posted.b.rps / posted.a.rps,
    cpu: {
      plain: meanCpu(shares.plain),
      pending: meanCpu(shares.pending),
      plainAgain: meanCpu(shares.plainAgain),
      post: meanCpu(shares.post),
    },
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
    return await pendingLoads(server, databaseUrl, label);
  } finally {
    await stop(server);
  }
}
