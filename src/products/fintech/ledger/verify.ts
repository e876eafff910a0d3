import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../../db/database.ts';
import { readSnapshot } from '../../../db/snapshot.ts';

/**
 * One invariant of the ledger (docs/api.md#moving-money-transfers-transactions-and-sandbox-simulations): how many
 * things it looked at, and every breach it found.
 */
export interface LedgerCheck {
  name: string;
  checked: number;
  violations: string[];
}

type Row = Record<string, unknown>;
type Read = (query: RawBuilder<Row>) => Promise<Row[]>;

/** A range of ids (inclusive) that a check may be restricted to; null: everything. */
type Range = { from: string; to: string } | null;
/** What a check's breaches are grouped by, so that it can run one range of them at a time. */
type Unit = 'journal' | 'account' | 'currency';

const within = (column: RawBuilder<unknown>, range: Range) =>
  range === null ? sql`1 = 1` : sql`${column} between ${range.from} and ${range.to}`;

// Sums are compared inside the database and only ever read as text: a broken ledger may hold totals that a
// JavaScript number cannot represent, and the report must still be exact. Each breach query can be restricted to a
// range of journal or account ids: every breach is about one journal or one account (its own rows, read in one
// statement), except the currency totals, which always run whole.
const CHECKS: { name: string; unit: Unit; count: RawBuilder<Row>; breaches: (range: Range) => RawBuilder<Row> }[] = [
  {
    name: 'every journal has two or more entries summing to 0',
    unit: 'journal',
    count: sql`select count(*) as n from ledger_journals`,
    breaches: (range) => sql`select j.id, count(e.id) as entries, cast(coalesce(sum(e.amount), 0) as text) as total
      from ledger_journals j left join ledger_entries e on e.journal_id = j.id
      where ${within(sql.ref('j.id'), range)}
      group by j.id having count(e.id) < 2 or coalesce(sum(e.amount), 0) <> 0`,
  },
  {
    name: "every entry is in its journal's currency",
    unit: 'journal',
    count: sql`select count(*) as n from ledger_entries`,
    breaches: (range) => sql`select e.id, a.currency as account_currency, j.currency as journal_currency
      from ledger_entries e join ledger_journals j on j.id = e.journal_id join ledger_accounts a on a.id = e.account_id
      where a.currency <> j.currency and ${within(sql.ref('e.journal_id'), range)}`,
  },
  {
    name: "every entry's balance_after is the previous balance_after plus its amount, in ledger order",
    unit: 'account',
    count: sql`select count(*) as n from ledger_entries`,
    breaches: (range) => sql`select id, account_id from (
        select id, account_id, amount, balance_after, account_seq,
          lag(balance_after) over (partition by account_id order by account_seq) as previous,
          row_number() over (partition by account_id order by account_seq) as position
        from ledger_entries where ${within(sql.ref('account_id'), range)}) x
      where balance_after - amount <> coalesce(previous, 0) or account_seq <> position`,
  },
  {
    name: "every account's balance = the sum of its entries = its last balance_after; no customer below 0",
    unit: 'account',
    count: sql`select count(*) as n from ledger_accounts`,
    breaches: (range) => sql`select a.id, cast(a.balance as text) as balance,
        cast(coalesce(s.total, 0) as text) as entries_sum, cast(l.balance_after as text) as last_balance_after
      from ledger_accounts a
      left join (select account_id, sum(amount) as total, count(*) as n, max(account_seq) as last_seq
        from ledger_entries where ${within(sql.ref('account_id'), range)} group by account_id) s on s.account_id = a.id
      left join ledger_entries l on l.account_id = a.id and l.account_seq = s.last_seq
      where ${within(sql.ref('a.id'), range)} and (a.balance <> coalesce(s.total, 0)
        or a.balance <> coalesce(l.balance_after, 0) or a.entry_count <> coalesce(s.n, 0)
        or (a.kind = 'customer' and a.balance < 0))`,
  },
  {
    name: "every customer ledger account has its account's status (the copy its balance updates guard on)",
    unit: 'account',
    count: sql`select count(*) as n from ledger_accounts where kind = 'customer'`,
    breaches: (range) => sql`select l.id, l.status as ledger_status, a.status as account_status
      from ledger_accounts l left join accounts a on a.id = l.id
      where l.kind = 'customer' and ${within(sql.ref('l.id'), range)} and (a.id is null or a.status <> l.status)`,
  },
  {
    name: 'every account holds exactly what its pending outgoing transfers hold, and keeps available (balance − held) ≥ 0',
    unit: 'account',
    count: sql`select count(*) as n from ledger_accounts where kind = 'customer'`,
    breaches: (range) => sql`select a.id, cast(a.balance as text) as balance, cast(a.held as text) as held,
        cast(coalesce(p.total, 0) as text) as pending_total
      from ledger_accounts a
      left join (select from_account_id, sum(amount) as total from transfers
        where status = 'pending' and ${within(sql.ref('from_account_id'), range)} group by from_account_id) p
        on p.from_account_id = a.id
      where a.kind = 'customer' and ${within(sql.ref('a.id'), range)}
        and (a.held <> coalesce(p.total, 0) or a.balance - a.held < 0)`,
  },
  {
    name: "every account's entries are in time order as in ledger order (balances at a past moment rely on it)",
    unit: 'account',
    count: sql`select count(*) as n from ledger_entries`,
    breaches: (range) => sql`select id, account_id from (
        select id, account_id, created_at,
          lag(created_at) over (partition by account_id order by account_seq) as previous
        from ledger_entries where ${within(sql.ref('account_id'), range)}) x
      where previous > created_at`,
  },
  {
    name: "every transfer's amount_reversed is the sum of its reversals, and at most what was posted",
    unit: 'currency',
    count: sql`select count(*) as n from transfers`,
    breaches: () => sql`select t.id, cast(t.amount_reversed as text) as amount_reversed,
        cast(coalesce(r.total, 0) as text) as reversals_total, cast(t.posted_amount as text) as posted_amount
      from transfers t left join (select transfer_id, sum(amount) as total from transfer_reversals
        group by transfer_id) r on r.transfer_id = t.id
      where t.amount_reversed <> coalesce(r.total, 0) or t.amount_reversed > coalesce(t.posted_amount, 0)`,
  },
  {
    name: "every reversal's journal moves its amount back, from the transfer's receiver to its sender",
    unit: 'journal',
    count: sql`select count(*) as n from transfer_reversals`,
    breaches: (range) => sql`select r.id from transfer_reversals r
      join transfers t on t.id = r.transfer_id
      left join ledger_journals j on j.id = r.id and j.source_type = 'transfer_reversal'
      left join ledger_entries back on back.journal_id = r.id and back.account_id = t.to_account_id
        and back.amount = -r.amount
      left join ledger_entries forth on forth.journal_id = r.id and forth.account_id = t.from_account_id
        and forth.amount = r.amount
      where ${within(sql.ref('r.id'), range)} and (j.id is null or back.id is null or forth.id is null)`,
  },
  {
    name: "every payment's status agrees with its transfer (docs/api.md#bank-account-numbers-and-payments)",
    unit: 'currency',
    count: sql`select count(*) as n from payments`,
    breaches: () => sql`select p.id, p.direction, p.status, t.id as transfer_id, t.status as transfer_status,
        cast(t.posted_amount as text) as posted_amount, cast(t.amount_reversed as text) as amount_reversed
      from payments p left join transfers t on t.id = p.transfer_id
      where not (
        (p.transfer_id is null and p.direction = 'inbound' and p.status = 'returned')
        or (t.id is not null and t.payment_id = p.id and t.amount = p.amount and (
          (p.status in ('pending_submission', 'submitted') and t.status = 'pending')
          or (p.status = 'settled' and t.status = 'posted' and t.posted_amount = p.amount and t.amount_reversed = 0)
          or (p.status = 'returned' and p.settled_at is null and t.status = 'voided')
          or (p.status = 'returned' and p.settled_at is not null and t.status = 'posted' and t.amount_reversed = p.amount)
          or (p.status in ('rejected', 'canceled') and t.status = 'voided'))))`,
  },
  {
    name: 'every clearing account holds exactly what its payments moved, and only payments move it',
    unit: 'currency',
    count: sql`select count(*) as n from ledger_accounts a where a.kind = 'system' and exists
      (select 1 from transfers t where t.payment_id is not null and a.id in (t.from_account_id, t.to_account_id))`,
    breaches: () => sql`select a.id, cast(a.balance as text) as balance, cast(coalesce(f.net, 0) as text) as moved
      from ledger_accounts a
      left join (select account_id, sum(net) as net from (
          select to_account_id as account_id, coalesce(posted_amount, 0) - amount_reversed as net from transfers
            where payment_id is not null
          union all
          select from_account_id as account_id, amount_reversed - coalesce(posted_amount, 0) as net from transfers
            where payment_id is not null) x group by account_id) f on f.account_id = a.id
      where a.kind = 'system' and (a.balance <> coalesce(f.net, 0) or exists (select 1 from transfers t
          where t.payment_id is null and a.id in (t.from_account_id, t.to_account_id)))
        and exists (select 1 from transfers t where a.id in (t.from_account_id, t.to_account_id))`,
  },
  {
    name: "what a rail's clearing account is owed by pending transfers is exactly its submitted, unsettled payments",
    unit: 'currency',
    count: sql`select count(*) as n from payments where status in ('pending_submission', 'submitted')`,
    breaches: () => sql`select t.to_account_id as clearing_account,
        cast(sum(case when t.status = 'pending' then t.amount else 0 end) as text) as pending_transfers,
        cast(sum(case when p.status in ('pending_submission', 'submitted') then p.amount else 0 end) as text)
          as open_payments
      from payments p join transfers t on t.id = p.transfer_id
      where p.direction = 'outbound'
      group by t.to_account_id
      having sum(case when t.status = 'pending' then t.amount else 0 end)
        <> sum(case when p.status in ('pending_submission', 'submitted') then p.amount else 0 end)`,
  },
  {
    name: 'every currency totals 0 over all accounts, system ones included (per org and mode)',
    unit: 'currency',
    count: sql`select count(*) as n from (select distinct org_id, mode, currency from ledger_accounts) c`,
    breaches: () => sql`select org_id, mode, currency, cast(sum(balance) as text) as total from ledger_accounts
      group by org_id, mode, currency having sum(balance) <> 0`,
  },
];

async function runChecks(read: Read): Promise<LedgerCheck[]> {
  const results: LedgerCheck[] = [];
  for (const check of CHECKS) {
    const [count] = await read(check.count);
    const breaches = await read(check.breaches(null));
    results.push({
      name: check.name,
      checked: Number(count?.n ?? 0),
      violations: breaches.map((row) => JSON.stringify(row)),
    });
  }
  return results;
}

/**
 * Checks every invariant of the ledger against one consistent snapshot (REPEATABLE READ on PostgreSQL; on SQLite
 * a read transaction is a snapshot already), so that it can run while money moves.
 */
export function verifyLedger(db: Db): Promise<LedgerCheck[]> {
  return readSnapshot(db, (snapshot) => runChecks(async (query) => (await query.execute(snapshot)).rows));
}

const TABLE_OF: Record<Exclude<Unit, 'currency'>, string> = { journal: 'ledger_journals', account: 'ledger_accounts' };

/** Consecutive ranges of `size` ids of the table, in id order. */
async function* rangesOf(db: Db, unit: Exclude<Unit, 'currency'>, size: number): AsyncGenerator<Range> {
  let after = '';
  for (;;) {
    const { rows } = await sql<{ first: string | null; last: string | null }>`select min(id) as first,
        max(id) as last from (select id from ${sql.table(TABLE_OF[unit])} where id > ${after} order by id
        limit ${size}) page`.execute(db);
    const page = rows[0];
    if (page?.first == null || page.last == null) return;
    yield { from: page.first, to: page.last };
    after = page.last;
  }
}

/**
 * The value of `plinth_ledger_invariant_violations`: 0 on a sound ledger. The same checks as `verifyLedger`, but a
 * range of `chunk` journals or accounts per statement, the event loop free between them: one statement over a
 * whole ledger of millions of entries would hold a server's event loop for seconds. Each breach is read from its
 * own journal's or account's rows in one statement, so a range is as consistent as the whole; the currency totals
 * are one statement over the accounts.
 */
export async function countLedgerViolations(db: Db, chunk = 2000): Promise<number> {
  let violations = 0;
  for (const check of CHECKS) {
    const ranges = check.unit === 'currency' ? [null] : rangesOf(db, check.unit, chunk);
    for await (const range of ranges) {
      violations += (await check.breaches(range).execute(db)).rows.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return violations;
}
