import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { storedTime } from '../../../../src/platform/kit/time.ts';
import { MAX_AMOUNT, toAmount, withinBounds } from '../../../../src/products/fintech/ledger/amount.ts';
import { type Line, postJournal } from '../../../../src/products/fintech/ledger/post.ts';
import { lockSides, type Side } from '../../../../src/products/fintech/ledger/sides.ts';
import { ensureSystemAccount } from '../../../../src/products/fintech/ledger/system-account.ts';
import { countLedgerViolations } from '../../../../src/products/fintech/ledger/verify.ts';
import { BACKEND } from '../../../helpers/database.ts';
import { money } from '../../../helpers/money.ts';
import { useServer } from '../../../helpers/server.ts';

describe('amounts are exact or refused', () => {
  test('toAmount reads numbers, pg decimal strings and bigints exactly, and refuses what it cannot', () => {
    assert.equal(toAmount(42), 42);
    assert.equal(toAmount('-9007199254740991'), -MAX_AMOUNT);
    assert.equal(toAmount(9007199254740991n), MAX_AMOUNT);
    for (const bad of ['9007199254740992', '1.5', 'abc', 2 ** 53, 0.1]) assert.throws(() => toAmount(bad));
  });

  test('withinBounds agrees with exact arithmetic', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_AMOUNT, max: MAX_AMOUNT }),
        fc.integer({ min: -MAX_AMOUNT, max: MAX_AMOUNT }),
        (b, d) => {
          const exact = BigInt(b) + BigInt(d);
          assert.equal(
            withinBounds(toAmount(b), toAmount(d)),
            exact >= -BigInt(MAX_AMOUNT) && exact <= BigInt(MAX_AMOUNT),
          );
        },
      ),
    );
  });
});

describe(`postJournal and lockSides, the ledger's one way in (${BACKEND})`, () => {
  const server = useServer();
  let a: string;
  let b: string;
  let orgId: string;
  const journal = (id: string, currency = 'USD') => ({
    id,
    org_id: orgId,
    mode: 'sandbox' as const,
    currency,
    source_type: 'transfer' as const,
    description: null,
    created_at: storedTime(new Date()),
  });
  /** A ledger account as a caller would have read it under its lock, now. */
  const side = (id: string): Promise<Side> =>
    server.database.db
      .selectFrom('ledger_accounts')
      .select(['id', 'kind', 'status', 'currency', 'balance', 'held', 'entry_count', 'last_entry_at', 'sealed_before'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const line = async (id: string, amount: number): Promise<Line> => ({ side: await side(id), amount });
  const post = (id: string, lines: Line[], currency = 'USD') =>
    server.database.write(async (trx) => postJournal(trx, journal(id, currency), lines));
  const balances = () =>
    server.database.db.selectFrom('ledger_accounts').select(['id', 'balance']).orderBy('id').execute();

  before(async () => {
    const m = money(server.url, await server.key('core'));
    [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 100);
    const row = await server.database.db.selectFrom('accounts').select('org_id').where('id', '=', a).executeTakeFirst();
    orgId = row!.org_id;
  });

  test('refuses journals that do not balance, have one line, or a zero line; writes nothing', async () => {
    await assert.rejects(post('tr_x1', [await line(a, -10), await line(b, 9)]), /summing to 0/);
    await assert.rejects(post('tr_x2', [await line(a, 0), await line(b, 0)]), /summing to 0/);
    await assert.rejects(post('tr_x3', [await line(a, 0)]), /summing to 0/);
    assert.equal(await countLedgerViolations(server.database.db), 0);
  });

  test('behind the checks, the database refuses a negative customer balance, a balance past 2^53 − 1 and a stale side; the whole journal rolls back', async () => {
    const before = await balances();
    // postJournal decides nothing (the caller checked under the locks): what it is handed is what it tries to write.
    await assert.rejects(post('tr_d1', [await line(a, -101), await line(b, 101)]), 'below 0');
    await assert.rejects(post('tr_d2', [await line(b, -MAX_AMOUNT), await line(a, MAX_AMOUNT)]), 'past the bound');
    const stale = await line(a, -1);
    await post('tr_d3', [stale, await line(b, 1)]);
    const after3 = await balances();
    // The same read of `a` again: its entry would repeat an account_seq, which the unique constraint refuses.
    await assert.rejects(post('tr_d4', [stale, await line(b, 1)]), 'a stale side (a lock not held)');
    assert.deepEqual(await balances(), after3);
    assert.notDeepEqual(after3, before);
    const journals = await server.database.db
      .selectFrom('ledger_journals')
      .select('id')
      .where('id', 'in', ['tr_d1', 'tr_d2', 'tr_d4'])
      .execute();
    assert.deepEqual(journals, []);
    assert.equal(await countLedgerViolations(server.database.db), 0);
  });

  test("lockSides sees only the owner's customer accounts: not another org's, not a system account", async () => {
    const system = await server.database.write(async (trx) =>
      ensureSystemAccount(trx, orgId, 'sandbox', 'USD', storedTime(new Date())),
    );
    const other = money(server.url, await server.key('core-other-org'));
    const stranger = await other.account();
    const owner = { orgId, mode: 'sandbox' as const };
    const seen = await server.database.write(async (trx) => ({
      own: [...(await lockSides(trx, owner, [a, b])).keys()].sort(),
      stranger: [...(await lockSides(trx, owner, [a, stranger])).keys()],
      system: [...(await lockSides(trx, owner, [system])).keys()],
      live: [...(await lockSides(trx, { orgId, mode: 'live' }, [a])).keys()],
    }));
    assert.deepEqual(seen, { own: [a, b].sort(), stranger: [a], system: [], live: [] });
  });

  test('posts balanced journals with balance_after and account_seq per account, three lines included', async () => {
    const system = await server.database.write(async (trx) =>
      ensureSystemAccount(trx, orgId, 'sandbox', 'USD', storedTime(new Date())),
    );
    const lines = [await line(a, -60), await line(b, 50), await line(system, 10)];
    const posted = await post('tr_ok1', lines);
    const expected = Object.fromEntries(lines.map((l) => [l.side.id, Number(l.side.balance) + l.amount]));
    assert.deepEqual(Object.fromEntries(posted.map((p) => [p.accountId, p.balanceAfter])), expected);
    for (const l of lines) assert.equal(Number((await side(l.side.id)).balance), expected[l.side.id]);
    assert.equal(await countLedgerViolations(server.database.db), 0);
  });
});
