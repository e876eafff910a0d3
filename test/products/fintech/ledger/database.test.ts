import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../../../src/db/open.ts';
import { ALL_MIGRATIONS } from '../../../../src/modules.ts';
import { countLedgerViolations } from '../../../../src/products/fintech/ledger/verify.ts';
import { BACKEND, freshDatabase, migrateBefore } from '../../../helpers/database.ts';
import { money } from '../../../helpers/money.ts';
import { run } from '../../../helpers/process.ts';
import { useServer } from '../../../helpers/server.ts';

/** The database itself guards the ledger, whatever code (or person) talks to it. */
describe(`the ledger's own defences in the database (${BACKEND})`, () => {
  const server = useServer();
  let a: string;
  let transferId: string;
  const verify = () => run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: server.databaseUrl });
  const refused = (statement: ReturnType<typeof sql>, pattern: RegExp) =>
    assert.rejects(
      server.database.write((trx) => statement.execute(trx)),
      pattern,
    );

  before(async () => {
    const m = money(server.url, await server.key('acme'));
    const b = await m.account();
    a = await m.account();
    await m.deposit(a, 1000);
    transferId = (await m.transfer(a, b, 400)).id;
  });

  test('an UPDATE or DELETE of a ledger entry is refused', async () => {
    await refused(sql`update ledger_entries set amount = amount * 2`, /append-only/);
    await refused(sql`update ledger_entries set balance_after = 0 where account_id = ${a}`, /append-only/);
    await refused(sql`delete from ledger_entries`, /append-only/);
    const count = await server.database.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 4);
  });

  test('journals are append-only too; a transfer changes only from pending to an end, in its metadata, and by reversals up to what was posted', async () => {
    await refused(sql`update ledger_journals set currency = 'EUR'`, /append-only/);
    await refused(sql`delete from ledger_journals`, /append-only/);
    const guarded = /a transfer changes only from pending to an end, in its metadata, and by reversals/;
    await refused(sql`update transfers set amount = 1 where id = ${transferId}`, guarded);
    await refused(sql`update transfers set status = 'voided' where id = ${transferId}`, guarded); // posted is final
    await refused(sql`update transfers set posted_amount = 1 where id = ${transferId}`, guarded);
    await refused(sql`delete from transfers`, BACKEND === 'postgres' ? guarded : /append-only/);
    // Reversals: what was reversed never passes what was posted, and never shrinks (docs/api.md#correcting-a-transfer).
    const bounded = /transfers_reversed_bounded|constraint|CHECK/i;
    await refused(sql`update transfers set amount_reversed = posted_amount + 1 where id = ${transferId}`, bounded);
    await refused(sql`update transfers set amount_reversed = -1 where id = ${transferId}`, guarded);
    if (BACKEND === 'postgres') await refused(sql`truncate ledger_entries cascade`, /append-only/);
  });

  test('a CHECK constraint refuses a negative customer balance; the system account may go negative', async () => {
    await refused(sql`update ledger_accounts set balance = -1 where id = ${a}`, /constraint|CHECK/i);
    const system = await server.database.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('kind', '=', 'system')
      .executeTakeFirstOrThrow();
    assert.equal(Number(system.balance), -1000);
  });

  test('ledger verify passes on a sound ledger and names the breach on a tampered one', async () => {
    const ok = await verify();
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /every journal has two or more entries summing to 0 \(2 checked\)/);
    assert.match(ok.stdout, /ledger verify: every invariant holds/);
    assert.equal(await countLedgerViolations(server.database.db), 0);
    // Balances are the one mutable money column: change one behind the ledger's back.
    await server.database.write((trx) =>
      sql`update ledger_accounts set balance = balance + 1 where id = ${a}`.execute(trx),
    );
    try {
      const bad = await verify();
      assert.equal(bad.code, 1);
      assert.match(bad.stdout, new RegExp(`VIOLATION.*\\n.*${a}`));
      assert.match(bad.stdout, /ledger verify: FAILED/);
      // The account's own check and its currency's total both fail, whether the metric reads the ledger in one
      // range or one journal or account at a time.
      assert.equal(await countLedgerViolations(server.database.db), 2);
      assert.equal(await countLedgerViolations(server.database.db, 1), 2);
    } finally {
      await server.database.write((trx) =>
        sql`update ledger_accounts set balance = balance - 1 where id = ${a}`.execute(trx),
      );
    }
    assert.equal(await countLedgerViolations(server.database.db), 0);
  });

  test("ledger verify names a ledger account whose status is not its account's", async () => {
    // The copy that every balance update guards on: were it to say active for a frozen account, money would move.
    await server.database.write((trx) =>
      sql`update ledger_accounts set status = 'frozen' where id = ${a}`.execute(trx),
    );
    try {
      const bad = await verify();
      assert.equal(bad.code, 1);
      assert.match(
        bad.stdout,
        new RegExp(`VIOLATION.*status.*\\n.*${a}.*"ledger_status":"frozen","account_status":"active"`),
      );
      assert.equal(await countLedgerViolations(server.database.db), 1);
    } finally {
      await server.database.write((trx) =>
        sql`update ledger_accounts set status = 'active' where id = ${a}`.execute(trx),
      );
    }
    assert.equal(await countLedgerViolations(server.database.db), 0);
  });
});

describe(`upgrading a ledger to status-guarded balance updates (${BACKEND})`, () => {
  test("the migration gives each customer ledger account its account's status, system accounts active", async () => {
    const fresh = await freshDatabase();
    const database = openDatabase(fresh.url);
    try {
      await migrateBefore(database, '2026-11-24T0100_ledger_account_status');
      const now = new Date().toISOString();
      await database.write(async (trx) => {
        await sql`insert into orgs (id, name, created_at) values ('org_UP', 'up', ${now})`.execute(trx);
        for (const [id, status] of [
          ['acct_01M7Z25FCR5ZY0JCJ80M91V6X1', 'active'],
          ['acct_01M7Z25FCR5ZY0JCJ80M91V6X2', 'frozen'],
          ['acct_01M7Z25FCR5ZY0JCJ80M91V6X3', 'closed'],
        ]) {
          await sql`insert into accounts (id, org_id, mode, type, country, currency, status, created_at)
            values (${id}, 'org_UP', 'sandbox', 'business', 'US', 'USD', ${status}, ${now})`.execute(trx);
          await sql`insert into ledger_accounts (id, org_id, mode, currency, kind, balance, entry_count, created_at)
            values (${id}, 'org_UP', 'sandbox', 'USD', 'customer', 0, 0, ${now})`.execute(trx);
        }
        await sql`insert into ledger_accounts (id, org_id, mode, currency, kind, balance, entry_count, created_at)
          values ('sys_org_UP_sandbox_USD', 'org_UP', 'sandbox', 'USD', 'system', 0, 0, ${now})`.execute(trx);
      });
      await database.migrate(ALL_MIGRATIONS);
      const rows = await database.db.selectFrom('ledger_accounts').select(['id', 'status']).orderBy('id').execute();
      assert.deepEqual(
        rows.map((row) => row.status),
        ['active', 'frozen', 'closed', 'active'],
      );
      assert.equal(await countLedgerViolations(database.db), 0);
    } finally {
      await database.close();
      await fresh.drop();
    }
  });
});
