/**
 * The hash chain survives kill -9 (issue 43, docs/api.md#verifying-the-history): 10,000 writes over two orgs, each in
 * sandbox and live (account creates, sandbox deposits, transfers: every chain has `fintech.transaction.created`
 * events), sent by lanes to real server processes (`node src/server.ts`) that are killed with SIGKILL in the middle
 * and restarted, each unanswered write retried with its Idempotency-Key until answered. On PostgreSQL two processes
 * share the database and number events in their own sequencer passes: at 30% of the writes one is stopped while the
 * database shows it holding an open pass (its numbers drawn and chain rows written, not committed), then killed (the
 * other numbers on); at 60% both are killed at once. On SQLite, which numbers in the write, the one process is killed
 * at 50%.
 *
 * Then, for each of the four chains: `cli audit verify` exits 0 (no gap, every body hashing to its link and naming
 * the previous one, every ledger transaction reported by its event); its size is the number of events listed, and
 * GET /v1/audit/chain lists each event's id and the SHA-256 of its body as served.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { genesisHash } from '../../../src/platform/outbox/chain.ts';
import { writeCsv } from '../../../src/products/fintech/bank/statements/csv.ts';
import { send } from '../../crash/http.ts';
import { BACKEND, freshDatabase, type TestDatabase } from '../../helpers/database.ts';
import { run, type ServerProcess, spawnServer } from '../../helpers/process.ts';
import { freezeMidPass } from '../../helpers/sequencer-pass.ts';
import { UNLIMITED } from '../../helpers/server.ts';

const WRITES = 10_000;
const LANES_A_CHAIN = 4;
/** The whole test's bound: 10,000 writes take a few minutes on a busy 2-core machine. */
const BOUND_MS = 25 * 60_000;
/** The bank's routing number: live account numbers need it; `bank import` funds the live accounts. */
const BANK = { BANK_ROUTING_NUMBER: '021000021', BANK_NAME: 'Chain Test Bank', BANK_ORIGIN_ID: '1234567890' };
const FUNDS = 100_000_000;

type Mode = 'sandbox' | 'live';
interface Chain {
  org: string;
  mode: Mode;
  key: string;
  orgId: string;
  from: string;
  to: string;
  accounts: string[];
}
interface Listed {
  id: string;
  type: string;
  sequence: number;
  chain: { prev: string };
  data: { object: { id: string } };
}

describe(`the hash chain through kill -9 (${BACKEND})`, () => {
  let db: TestDatabase;
  let database: Database;
  const servers: (ServerProcess | null)[] = [];
  const env = () => ({ ...UNLIMITED, ...BANK, DATABASE_URL: db.url });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const dir = mkdtempSync(join(tmpdir(), 'chain-crash-'));

  before(async () => {
    db = await freshDatabase();
    servers.push(await spawnServer(env()));
    if (BACKEND === 'postgres') servers.push(await spawnServer(env()));
    database = openDatabase(db.url);
  });
  after(async () => {
    for (const s of servers) s?.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s?.exited));
    agent.destroy();
    await database?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = (args: string[]) => run(['src/cli/main.ts', ...args], { ...BANK, DATABASE_URL: db.url });
  const up = () => servers.filter((s): s is ServerProcess => s !== null);
  let retried = 0;
  const unnumbered = async () =>
    Number(
      (
        await database.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('sequence', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A request to a live server, answered 200; an unanswered one (a killed server) retried on the next with its key. */
  async function write(chain: Chain, path: string, json: unknown, turn = 0): Promise<{ id: string }> {
    const idempotency = randomUUID();
    for (let attempt = turn; ; attempt++) {
      const live = up();
      const server = live[attempt % Math.max(live.length, 1)];
      if (server === undefined) {
        await sleep(50);
        continue;
      }
      const headers = { authorization: `Bearer ${chain.key}`, 'idempotency-key': idempotency };
      const answer = await send(agent, server.url, 'POST', path, headers, json).catch(() => null);
      if (answer === null || answer.status === 409) {
        if (answer === null) retried++;
        await sleep(20);
        continue;
      }
      assert.equal(answer.status, 200, `POST ${path}: ${answer.text}`);
      return JSON.parse(answer.text);
    }
  }

  async function read<T>(chain: Chain, path: string): Promise<T> {
    const answer = await send(agent, up()[0]!.url, 'GET', path, { authorization: `Bearer ${chain.key}` });
    assert.equal(answer.status, 200, `GET ${path}: ${answer.text}`);
    return JSON.parse(answer.text);
  }

  /** The org's key for the mode, by the operator's `keys create`, and two funded accounts of its. */
  async function setUp(org: string, mode: Mode): Promise<Chain> {
    const made = await cli(['keys', 'create', '--org', org, '--mode', mode, '--json']);
    assert.equal(made.code, 0, made.stderr);
    const { key, org_id: orgId } = JSON.parse(made.stdout);
    const chain: Chain = { org, mode, key, orgId, from: '', to: '', accounts: [] };
    const account = { type: 'business', country: 'US' };
    chain.from = (await write(chain, '/v1/fintech/accounts', account)).id;
    chain.to = (await write(chain, '/v1/fintech/accounts', account)).id;
    chain.accounts.push(chain.from, chain.to);
    if (mode === 'sandbox')
      await write(chain, `/v1/sandbox/fintech/accounts/${chain.from}/deposits`, { amount: FUNDS });
    return chain;
  }

  /** Live money in: one statement crediting each live org's account number, by `bank import`. */
  async function fundLive(chains: Chain[]): Promise<void> {
    const lines = [];
    for (const chain of chains) {
      const number = await write(chain, '/v1/fintech/account_numbers', { account_id: chain.from, name: 'Main' });
      lines.push({
        reference: `CR-${chain.org}`,
        date: '2031-01-02',
        direction: 'credit' as const,
        amount: FUNDS,
        kind: 'credit' as const,
        accountNumber: (number as unknown as { account_number: string }).account_number,
        traceNumber: null,
        returnCode: null,
        counterparty: 'Globex',
        description: null,
      });
    }
    const path = join(dir, 'statement.csv');
    const statement = { format: 'csv' as const, account: 'OMNIBUS-1', currency: 'USD', date: '2031-01-02' };
    writeFileSync(path, writeCsv({ ...statement, opening: 0, closing: FUNDS * lines.length, lines }));
    const imported = await cli(['bank', 'import', path]);
    assert.equal(imported.code, 0, `bank import: ${imported.stdout}${imported.stderr}`);
  }

  /** The n-th write of a chain: an account, a deposit (sandbox) or a transfer, a transfer. */
  function nth(chain: Chain, n: number, turn: number): Promise<unknown> {
    const transfer = { from_account_id: chain.from, to_account_id: chain.to, amount: 1 + (n % 7), currency: 'USD' };
    switch (n % 3) {
      case 0:
        return write(chain, '/v1/fintech/accounts', { type: 'business', country: 'US' }, turn).then((a) =>
          chain.accounts.push(a.id),
        );
      case 1:
        if (chain.mode === 'sandbox')
          return write(chain, `/v1/sandbox/fintech/accounts/${chain.to}/deposits`, { amount: 1 + (n % 5) }, turn);
        return write(chain, '/v1/fintech/transfers', transfer, turn);
      default:
        return write(chain, '/v1/fintech/transfers', transfer, turn);
    }
  }

  async function kill(index: number): Promise<void> {
    const victim = servers[index]!;
    servers[index] = null;
    victim.child.kill('SIGKILL');
    await victim.exited;
  }
  async function restart(index: number): Promise<void> {
    servers[index] = await spawnServer(env());
  }

  async function listAll(chain: Chain): Promise<Listed[]> {
    const events: Listed[] = [];
    let cursor = '';
    for (;;) {
      const page = await read<{ data: Listed[]; has_more: boolean }>(chain, `/v1/events?limit=100${cursor}`);
      events.push(...page.data);
      if (!page.has_more) return events.sort((a, b) => a.sequence - b.sequence);
      cursor = `&starting_after=${page.data.at(-1)!.id}`;
    }
  }
  async function chainOf(chain: Chain): Promise<{ sequence: number; event_id: string; hash: string }[]> {
    const links: { sequence: number; event_id: string; hash: string }[] = [];
    for (;;) {
      const page = await read<{ data: typeof links; has_more: boolean }>(
        chain,
        `/v1/audit/chain?limit=1000&after=${links.at(-1)?.sequence ?? 0}`,
      );
      links.push(...page.data);
      if (!page.has_more) return links;
    }
  }

  test('10,000 writes over 2 orgs × 2 modes, servers killed mid-way: every chain verifies, no gap', {
    timeout: BOUND_MS,
  }, async (t) => {
    const chains: Chain[] = [];
    for (const org of ['chain-acme', 'chain-globex'])
      for (const mode of ['sandbox', 'live'] as const) chains.push(await setUp(org, mode));
    await fundLive(chains.filter((c) => c.mode === 'live'));

    let frozenMidPass = false;
    let leftUnnumbered = 0;
    let sent = 0;
    let acknowledged = 0;
    const lanes = chains.flatMap((chain) =>
      Array.from({ length: LANES_A_CHAIN }, async (_, lane) => {
        while (sent < WRITES) {
          const n = sent++;
          await nth(chain, n, lane);
          acknowledged++;
        }
      }),
    );
    const kills = (async () => {
      const at = async (share: number) => {
        while (acknowledged < WRITES * share) await sleep(10);
      };
      if (BACKEND === 'postgres') {
        await at(0.3);
        // Caught in its sequencer pass (numbers drawn, chain rows written, not committed), then killed: the other
        // process numbers on, its sequencer taking the turn.
        frozenMidPass = await freezeMidPass(db.url, servers[0]!);
        await kill(0);
        await restart(0);
        await at(0.6);
        await Promise.all([kill(0), kill(1)]);
        leftUnnumbered = await unnumbered();
        await Promise.all([restart(0), restart(1)]);
      } else {
        await at(0.5);
        await kill(0);
        await restart(0);
      }
    })();
    await Promise.all([...lanes, kills]);
    assert.equal(acknowledged, WRITES);
    if (BACKEND === 'postgres') {
      assert.ok(frozenMidPass, 'the first process was caught with its sequencer pass open, and killed so');
      t.diagnostic(`${leftUnnumbered} committed events were left unnumbered when both processes were killed`);
    }
    t.diagnostic(`${retried} writes went unanswered (a server killed or stopped) and were sent again with their key`);

    // Every committed event numbered (PostgreSQL's passes catch up after the writes), then each chain checked.
    for (let waited = 0; ; waited += 100) {
      const left = await unnumbered();
      if (left === 0) break;
      assert.ok(waited < 60_000, `${left} events still unnumbered after a minute`);
      await sleep(100);
    }
    for (const chain of chains) {
      const name = `${chain.org}/${chain.mode}`;
      const events = await listAll(chain);
      assert.deepEqual(
        events.map((e) => e.sequence),
        events.map((_, i) => i + 1),
        `${name}: numbered 1..n, no gap`,
      );
      const created = new Set(events.filter((e) => e.type === 'fintech.account.created').map((e) => e.data.object.id));
      assert.deepEqual(
        chain.accounts.filter((id) => !created.has(id)),
        [],
        `${name}: every account acknowledged has its event`,
      );
      const transactions = events.filter((e) => e.type === 'fintech.transaction.created').length;
      assert.ok(transactions > 100, `${name}: transactions were chained`);

      const links = await chainOf(chain);
      assert.equal(links.length, events.length, `${name}: one link per event`);
      let prev = genesisHash(chain.orgId, chain.mode);
      for (const [i, event] of events.entries()) {
        const link = links[i]!;
        assert.equal(event.chain.prev, prev, `${name}: event ${event.sequence} names the previous hash`);
        assert.deepEqual(
          link,
          { sequence: event.sequence, event_id: event.id, hash: sha256(JSON.stringify(event)) },
          `${name}: link ${event.sequence}`,
        );
        prev = link.hash;
      }

      const verified = await cli(['audit', 'verify', '--org', chain.org, '--mode', chain.mode, '--json']);
      assert.equal(verified.code, 0, `${name}: audit verify: ${verified.stdout}${verified.stderr}`);
      const result = JSON.parse(verified.stdout);
      assert.equal(result.failure, null);
      assert.equal(result.size, events.length, `${name}: the chain's size is the events listed`);
      assert.equal(result.hash, prev);
      assert.equal(result.bodies, events.length);
      assert.equal(result.expired, 0);
      assert.equal(result.rows.ledger_entries, transactions, `${name}: every transaction checked against its event`);
    }
  });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
