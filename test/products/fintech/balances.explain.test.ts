/**
 * The cost of a balance at a moment and of a statement does not grow with the account's history
 * (docs/api.md#balances-over-time-and-statements): over an account with 100,000 transactions and 100,000 holds,
 * written straight into the database, the planner answers each of the five queries from an index, with a range on
 * `created_at`: never a scan of the account's entries or transfers, never a sort. The queries explained are the ones
 * the code runs, captured as it sends them.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import type { Db } from '../../../src/db/database.ts';
import { heldBefore, lastEntryBefore, periodTotals } from '../../../src/products/fintech/balances.repository.ts';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { call, useServer } from '../../helpers/server.ts';

const DAY = 86_400_000;
const HISTORY = 100_000;
const STEP_MINUTES = 5; // 100,000 entries five minutes apart: about 347 days of history
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

/** A handle that runs queries as `db` does and keeps each one it is sent (SQL and parameters). */
function capturing(db: Db): { db: Db; sent: CompiledQuery[] } {
  const sent: CompiledQuery[] = [];
  const proxy = new Proxy(db, {
    get(target, property) {
      if (property === 'executeQuery')
        return (query: CompiledQuery) => {
          sent.push(query);
          return target.executeQuery(query);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy as Db, sent };
}

/** The plan as text: SQLite's EXPLAIN QUERY PLAN, or PostgreSQL's EXPLAIN, custom and generic. */
async function planOf(db: Db, query: CompiledQuery): Promise<string> {
  if (BACKEND === 'sqlite') {
    const explained = sql.raw(`explain query plan ${query.sql}`).compile(db);
    const { rows } = await db.executeQuery<{ detail: string }>({ ...explained, parameters: query.parameters });
    return rows.map((r) => r.detail).join('\n');
  }
  const explained = sql.raw(`explain ${query.sql}`).compile(db);
  const custom = await db.executeQuery<{ 'QUERY PLAN': string }>({ ...explained, parameters: query.parameters });
  // A prepared statement's generic plan, which PostgreSQL may use from its sixth run: values unknown when planned.
  const literal = (v: unknown) => (typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v));
  const generic = await db.transaction().execute(async (trx) => {
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    await sql.raw(`prepare balances_explained as ${query.sql}`).execute(trx);
    const plan = await sql
      .raw<{ 'QUERY PLAN': string }>(`explain execute balances_explained(${query.parameters.map(literal).join(', ')})`)
      .execute(trx);
    await sql`deallocate balances_explained`.execute(trx);
    return plan.rows;
  });
  return [...custom.rows, { 'QUERY PLAN': '-- generic --' }, ...generic].map((r) => r['QUERY PLAN']).join('\n');
}

// What each plan must say. PostgreSQL: the index named, with `created_at` in its Index Cond (a range of the account's
// entries or holds, never all of them); SQLite: SEARCH with both columns.
const COND = (side: string, range: string) => `\n\\s+Index Cond: \\(\\(${side} = [^)]*\\) AND ${range}\\)`;
const BOUNDED = '\\(created_at >= [^)]*\\) AND \\(created_at < [^)]*\\)';
const SEEK = {
  sqlite: /SEARCH ledger_entries USING INDEX ledger_entries_account_time_idx \(account_id=\? AND created_at<\?\)/,
  postgres: new RegExp(
    `Index Scan Backward using ledger_entries_account_time_idx[^\n]*${COND('account_id', '\\(created_at < [^)]*\\)')}`,
  ),
};
const HELD = {
  sqlite: /SEARCH transfers USING INDEX transfers_holds_idx \(from_account_id=\? AND created_at>\? AND created_at<\?\)/,
  postgres: new RegExp(`transfers_holds_idx[^\n]*${COND('from_account_id', BOUNDED)}`),
};
const RANGE = {
  sqlite:
    /SEARCH ledger_entries USING INDEX ledger_entries_account_time_idx \(account_id=\? AND created_at>\? AND created_at<\?\)/,
  postgres: new RegExp(`ledger_entries_account_time_idx[^\n]*${COND('account_id', BOUNDED)}`),
};

/** Each plan (on PostgreSQL, the custom one and the generic one) reads the index as expected, and nothing else. */
function assertPlan(plan: string, expected: { sqlite: RegExp; postgres: RegExp }) {
  for (const part of plan.split('-- generic --')) {
    assert.match(part, expected[BACKEND], plan);
    assert.doesNotMatch(part, /\bSCAN\b|Seq Scan|TEMP B-TREE|Sort/, plan);
  }
}

describe(`balances and statements read from indexes, whatever the history (${BACKEND})`, () => {
  const server = useServer({}, { clock });
  let a: string;
  const start = Date.now() - 380 * DAY;
  const at = (n: number) => new Date(start + DAY + n * STEP_MINUTES * 60_000).toISOString();

  before(async () => {
    const key = await server.key('balances-explain');
    const m = money(server.url, key);
    offsetMs = start - Date.now(); // the account opened 380 days ago, before all its history
    a = await m.account();
    const b = await m.account();
    offsetMs = 0;
    await m.deposit(a, 1_000_000);
    const db = server.database.db as Kysely<any>;
    const { journal_id } = await db
      .selectFrom('ledger_entries')
      .select('journal_id')
      .where('account_id', '=', a)
      .executeTakeFirstOrThrow();
    const { org_id } = await db.selectFrom('accounts').select('org_id').where('id', '=', a).executeTakeFirstOrThrow();
    // Entry n, and hold n (voided a minute after it was made), at day 1 + n × 5 minutes; balance_after n.
    const series =
      BACKEND === 'postgres'
        ? sql`select n from generate_series(1, ${HISTORY}) as g(n)`
        : sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < ${HISTORY}) select n from g`;
    const time = (minutes: number) =>
      BACKEND === 'postgres'
        ? sql`to_char(${new Date(start + DAY).toISOString()}::timestamptz at time zone 'UTC'
            + (n * ${STEP_MINUTES} + ${minutes}) * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
        : sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${new Date(start + DAY).toISOString()},
            '+' || (n * ${STEP_MINUTES} + ${minutes}) || ' minutes')`;
    await server.database.write(async (trx) => {
      await sql`insert into ledger_entries (id, journal_id, account_id, amount, balance_after, account_seq, created_at)
        select 'txn_bulk' || n, ${journal_id}, ${a}, 1, n, 1000000 + n, ${time(0)} from (${series}) s`.execute(trx);
      await sql`insert into transfers (id, org_id, mode, from_account_id, to_account_id, amount, currency, status,
          pending, expires_at, resolved_at, amount_reversed, metadata, created_at)
        select 'tr_bulk' || n, ${org_id}, 'sandbox', ${a}, ${b}, 1, 'USD', 'voided', 1, ${time(7 * 24 * 60)},
          ${time(1)}, 0, '{}', ${time(0)} from (${series}) s`.execute(trx);
    });
    await server.database.write((trx) => sql`analyze`.execute(trx));
    // What the API answers over that history: entry 50,000 is the last at its own instant; nothing is held then.
    const reply = await call(server.url, 'GET', `/v1/fintech/accounts/${a}/balances?at=${at(50_000)}`, { key });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.current_balance.amount, 50_000);
    assert.equal(reply.body.last_transaction_id, 'txn_bulk50000');
  });

  test('the balance at a moment: one seek of ledger_entries_account_time_idx and a range of transfers_holds_idx', async () => {
    const { db, sent } = capturing(server.database.db);
    const before = at(50_000);
    const since = new Date(Date.parse(before) - 30 * DAY).toISOString();
    const last = await lastEntryBefore(db, { account_id: a, before });
    assert.equal(Number(last.rows[0]?.balance_after), 49_999);
    const held = await heldBefore(db, { account_id: a, before, since });
    assert.equal(Number(held.rows[0]?.held ?? 0), 0);
    assert.equal(sent.length, 2, 'both queries went through the captured handle');
    assertPlan(await planOf(db, sent[0]!), SEEK);
    assertPlan(await planOf(db, sent[1]!), HELD);
  });

  test("the statement's three queries: two seeks and one range of ledger_entries_account_time_idx", async () => {
    const { db, sent } = capturing(server.database.db);
    const [from, to] = [at(20_000), at(28_640)]; // 30 days
    assert.equal(Number((await lastEntryBefore(db, { account_id: a, before: from })).rows[0]?.balance_after), 19_999);
    assert.equal(Number((await lastEntryBefore(db, { account_id: a, before: to })).rows[0]?.balance_after), 28_639);
    const totals = (await periodTotals(db, { account_id: a, from, to })).rows[0]!;
    assert.deepEqual(
      [Number(totals.credit_count), Number(totals.credits), Number(totals.debit_count)],
      [8640, 8640, 0],
    );
    assert.equal(sent.length, 3);
    assertPlan(await planOf(db, sent[0]!), SEEK);
    assertPlan(await planOf(db, sent[1]!), SEEK);
    assertPlan(await planOf(db, sent[2]!), RANGE);
  });
});
