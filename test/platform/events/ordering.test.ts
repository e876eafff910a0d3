/**
 * Events numbered off the write path, and lists that never skip, under concurrent writers (docs/api.md#pagination, docs/api.md#events): on
 * PostgreSQL two server processes on one database write at once (the sequencer takes turns across them); on SQLite one
 * server. Afterwards, for each org and mode: events numbered 1..n with no gap or duplicate; every committed write has
 * all its events and no refused one has any; each account's `fintech.transaction.created` events, replayed in sequence
 * order, reproduce every `balance_after`; and a client that polled and paged the lists while the writes ran saw every
 * transfer and account exactly once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { BACKEND, freshDatabase, type TestDatabase } from '../../helpers/database.ts';
import { type ServerProcess, spawnServer } from '../../helpers/process.ts';
import { call, startServer, type TestServer, UNLIMITED } from '../../helpers/server.ts';

type Item = { id: string; object: string; [field: string]: unknown };
type Event = { id: string; type: string; sequence: number; data: { object: Item } };

/** Every page of a list, newest first, walked with starting_after. */
async function all(url: string, key: string, path: string): Promise<Item[]> {
  const items: Item[] = [];
  let after: string | undefined;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const reply = await call(url, 'GET', `${path}${sep}limit=100${after ? `&starting_after=${after}` : ''}`, { key });
    assert.equal(reply.status, 200, reply.text);
    items.push(...reply.body.data);
    if (!reply.body.has_more) return items;
    after = items.at(-1)!.id;
  }
}

/** A client that polls for what is new (ending_before the newest it has seen) until told to stop. */
function poller(urls: string[], key: string, path: string) {
  const seen: string[] = [];
  let turn = 0;
  const once = async () => {
    const newest = seen.at(-1);
    const sep = path.includes('?') ? '&' : '?';
    const query = newest === undefined ? `${sep}limit=100` : `${sep}limit=100&ending_before=${newest}`;
    const reply = await call(urls[turn++ % urls.length]!, 'GET', `${path}${query}`, { key });
    assert.equal(reply.status, 200, reply.text);
    // Newest first: appended oldest first, so that the last one seen is the newest.
    seen.push(...(reply.body.data as Item[]).map((item) => item.id).reverse());
  };
  let stop = false;
  const polling = (async () => {
    while (!stop) await once();
  })();
  return {
    seen,
    /** Stops, then polls once more, as a client asking after the writes would. */
    async finish() {
      stop = true;
      await polling;
      await once();
    },
  };
}

interface Writes {
  accounts: string[];
  transfers: string[];
  /** Deposits and transfers that succeeded, per account: the transactions it must have. */
  transactions: number;
}

type Op =
  | { kind: 'account' }
  | { kind: 'transfer'; from: number; to: number; amount: number }
  | { kind: 'deposit'; at: number; amount: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'account' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      from: fc.nat(3),
      to: fc.nat(3),
      amount: fc.integer({ min: 1, max: 400 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      at: fc.nat(3),
      amount: fc.integer({ min: 1, max: 300 }),
    }),
  },
);

async function writeAll(urls: string[], key: string, ops: Op[], writes: Writes) {
  const seed: string[] = [];
  for (let i = 0; i < 4; i++) {
    const reply = await call(urls[i % urls.length]!, 'POST', '/v1/fintech/accounts', {
      key,
      json: { type: 'business', country: 'US' },
    });
    seed.push(reply.body.id as string);
    writes.accounts.push(reply.body.id);
  }
  await Promise.all(
    ops.map(async (o, i) => {
      const url = urls[i % urls.length]!;
      const headers = { 'idempotency-key': randomUUID() };
      if (o.kind === 'account') {
        const reply = await call(url, 'POST', '/v1/fintech/accounts', {
          key,
          headers,
          json: { type: 'business', country: 'US' },
        });
        assert.equal(reply.status, 200, reply.text);
        writes.accounts.push(reply.body.id);
      } else if (o.kind === 'deposit') {
        const reply = await call(url, 'POST', `/v1/sandbox/fintech/accounts/${seed[o.at]}/deposits`, {
          key,
          headers,
          json: { amount: o.amount },
        });
        assert.equal(reply.status, 200, reply.text);
        writes.transactions++;
      } else {
        const json = { from_account_id: seed[o.from], to_account_id: seed[o.to], amount: o.amount, currency: 'USD' };
        const reply = await call(url, 'POST', '/v1/fintech/transfers', { key, headers, json });
        if (reply.status === 200) {
          writes.transfers.push(reply.body.id);
          writes.transactions += 2;
        } else assert.ok([400, 409].includes(reply.status), reply.text);
      }
    }),
  );
}

async function checkEvents(url: string, key: string, writes: Writes): Promise<void> {
  const events = (await all(url, key, '/v1/events')) as unknown as Event[];
  const sequences = events.map((e) => e.sequence).sort((a, b) => a - b);
  assert.deepEqual(
    sequences,
    Array.from({ length: events.length }, (_, i) => i + 1),
    'numbered 1..n, no gap',
  );
  const ofType = (type: string) => events.filter((e) => e.type === type).map((e) => e.data.object.id);
  assert.deepEqual(ofType('fintech.account.created').sort(), [...writes.accounts].sort(), 'one per account');
  assert.deepEqual(ofType('fintech.transfer.created').sort(), [...writes.transfers].sort(), 'one per transfer');
  const transactions = events.filter((e) => e.type === 'fintech.transaction.created');
  assert.equal(transactions.length, writes.transactions, 'one per side of each movement, none for refusals');
  const byAccount = new Map<string, Item[]>();
  for (const e of [...transactions].sort((a, b) => a.sequence - b.sequence)) {
    const t = e.data.object;
    byAccount.set(t.account_id as string, [...(byAccount.get(t.account_id as string) ?? []), t]);
  }
  for (const [account, list] of byAccount) {
    let balance = 0;
    for (const t of list) {
      balance += t.amount as number;
      assert.equal(t.balance_after, balance, `${account}: replaying its events in sequence order`);
    }
    const current = (await call(url, 'GET', `/v1/fintech/accounts/${account}`, { key })).body;
    assert.equal(current.current_balance.amount, balance);
  }
}

const RUNS = Number(process.env.ORDERING_PROPERTY_RUNS ?? 4);

describe(`events and lists under concurrent writers (${BACKEND})`, () => {
  let db: TestDatabase | undefined;
  let processes: ServerProcess[] = [];
  let local: TestServer | undefined;
  let urls: string[] = [];
  let keyFor: (org: string) => Promise<string>;
  before(async () => {
    if (BACKEND === 'postgres') {
      db = await freshDatabase();
      const env = { ...UNLIMITED, DATABASE_URL: db.url };
      processes = [await spawnServer(env), await spawnServer(env)];
      urls = processes.map((p) => p.url);
      keyFor = async () =>
        (await call(urls[0]!, 'POST', '/v1/sandbox/signup', { json: {} })).body.api_key.key as string;
    } else {
      local = await startServer();
      urls = [local.url];
      keyFor = (org) => local!.key(org);
    }
  });
  after(async () => {
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => p.exited));
    await db?.drop();
    await local?.close();
  });

  test('events are numbered 1..n in an order that replays every balance; polled and paged lists miss nothing', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 40 }), async (ops) => {
        const key = await keyFor(`ordering-${run++}`);
        const writes: Writes = { accounts: [], transfers: [], transactions: 0 };
        const since = new Date(Date.now() - 60_000).toISOString().slice(0, 16) + 'Z';
        const transfers = poller(urls, key, '/v1/fintech/transfers');
        const accounts = poller(urls, key, '/v1/fintech/accounts');
        // A date filter combined with the cursor, as a client syncing "since" would poll.
        const recent = poller(urls, key, `/v1/fintech/transfers?created[gte]=${since}`);
        await writeAll(urls, key, ops, writes);
        await transfers.finish();
        await accounts.finish();
        await recent.finish();
        assert.deepEqual([...recent.seen].sort(), [...writes.transfers].sort(), 'polling with created[gte] missed one');
        assert.deepEqual(
          [...transfers.seen].sort(),
          [...writes.transfers].sort(),
          'polling transfers missed or repeated',
        );
        assert.deepEqual([...accounts.seen].sort(), [...writes.accounts].sort(), 'polling accounts missed or repeated');
        const paged = (await all(urls[0]!, key, '/v1/fintech/transfers')).map((t) => t.id);
        assert.deepEqual([...paged].sort(), [...writes.transfers].sort());
        await checkEvents(urls.at(-1)!, key, writes);
      }),
      { numRuns: RUNS },
    );
  });
});
