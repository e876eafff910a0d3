import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { storedTime } from '../../../../src/platform/kit/time.ts';
import { MAX_AMOUNT, toAmount, withinBounds } from '../../../../src/products/fintech/ledger/amount.ts';
import { type Line, postJournal } from '../../../../src/products/fintech/ledger/post.ts';
import { ensureSystemAccount } from '../../../../src/products/fintech/ledger/system-account.ts';
import { countLedgerViolations } from '../../../../src/products/fintech/ledger/verify.ts';
import { BACKEND } from '../../../helpers/database.ts';
import { money } from '../../../helpers/money.ts';
import { call, startServer, type TestServer } from '../../../helpers/server.ts';

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
          assert.equal(withinBounds(b, d), exact >= -BigInt(MAX_AMOUNT) && exact <= BigInt(MAX_AMOUNT));
        },
      ),
    );
  });
});

describe(`postJournal, the ledger's one way in (${BACKEND})`, () => {
  let server: TestServer;
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
  const post = (id: string, lines: Line[], currency = 'USD') =>
    server.database.write((trx) => postJournal(trx, journal(id, currency), lines));

  before(async () => {
    server = await startServer();
    const m = money(server.url, await server.key('core'));
    [a, b] = [await m.account(), await m.account()];
    await m.deposit(a, 100);
    const row = await server.database.db.selectFrom('accounts').select('org_id').where('id', '=', a).executeTakeFirst();
    orgId = row!.org_id;
  });
  after(() => server.close());

  test('refuses journals that do not balance, have one line, or a zero line; writes nothing', async () => {
    await assert.rejects(
      post('tr_x1', [
        { accountId: a, kind: 'customer', amount: -10 },
        { accountId: b, kind: 'customer', amount: 9 },
      ]),
      /summing to 0/,
    );
    await assert.rejects(
      post('tr_x2', [
        { accountId: a, kind: 'customer', amount: 0 },
        { accountId: b, kind: 'customer', amount: 0 },
      ]),
      /summing to 0/,
    );
    await assert.rejects(post('tr_x3', [{ accountId: a, kind: 'customer', amount: 0 }]), /summing to 0/);
    assert.equal(await countLedgerViolations(server.database.db), 0);
  });

  test('refuses a line that would take a customer below 0, or in another currency; the whole journal rolls back', async () => {
    await assert.rejects(
      post('tr_x4', [
        { accountId: a, kind: 'customer', amount: -101 },
        { accountId: b, kind: 'customer', amount: 101 },
      ]),
      /refused/,
    );
    await assert.rejects(
      post(
        'tr_x5',
        [
          { accountId: a, kind: 'customer', amount: -1 },
          { accountId: b, kind: 'customer', amount: 1 },
        ],
        'EUR',
      ),
      /refused/,
    );
    const journals = await server.database.db
      .selectFrom('ledger_journals')
      .select('id')
      .where('id', 'like', 'tr_x%')
      .execute();
    assert.deepEqual(journals, []);
  });

  test('the guarded update itself refuses a frozen account, another org, a system account named as a customer, a balance past 2^53 − 1', async () => {
    const pair = (from: string, to: string, amount = 1, fromKind: Line['kind'] = 'customer'): Line[] => [
      { accountId: from, kind: fromKind, amount: -amount },
      { accountId: to, kind: 'customer', amount },
    ];
    const system = await server.database.write((trx) =>
      ensureSystemAccount(trx, orgId, 'sandbox', 'USD', storedTime(new Date())),
    );
    const other = money(server.url, await server.key('core-other-org'));
    const stranger = await other.account();
    await other.deposit(stranger, 5);
    const frozen = await money(server.url, await server.key('core')).account();
    await call(server.url, 'POST', `/v1/fintech/accounts/${frozen}/freeze`, {
      key: await server.key('core'),
      json: { reason: 'other' },
    });
    const rows = () =>
      server.database.db.selectFrom('ledger_accounts').select(['id', 'balance']).orderBy('id').execute();
    const before = await rows();
    // Each is refused with no explanation to offer (no `explain`): the ledger calls that a bug, and writes nothing.
    await assert.rejects(post('tr_g1', pair(a, frozen)), /refused/, 'credit to a frozen account');
    await assert.rejects(post('tr_g2', pair(stranger, b)), /refused/, "another org's account");
    await assert.rejects(post('tr_g3', pair(system, b)), /refused/, 'a system account named as a customer');
    await assert.rejects(post('tr_g4', pair(a, system, 1, 'customer').reverse()), /refused/, 'system as customer');
    await assert.rejects(post('tr_g5', pair(b, a, MAX_AMOUNT)), /refused/, 'past the bound (and below 0)');
    assert.deepEqual(await rows(), before);
    const status = await server.database.db
      .selectFrom('ledger_accounts')
      .select('status')
      .where('id', '=', frozen)
      .executeTakeFirstOrThrow();
    assert.equal(status.status, 'frozen', "the ledger's copy of the status follows the account's");
  });

  test('a refused line is explained: explain may throw the client error, or find nothing wrong and the line retried', async () => {
    // More than a holds: refused, whatever explain says.
    const tooMuch: Line[] = [
      { accountId: a, kind: 'customer', amount: -1_000_000 },
      { accountId: b, kind: 'customer', amount: 1_000_000 },
    ];
    const postExplained = (id: string, explain: () => Promise<void>) =>
      server.database.write((trx) => postJournal(trx, journal(id), tooMuch, explain));
    const explained = new Error('explained');
    await assert.rejects(
      postExplained('tr_e1', async () => {
        throw explained;
      }),
      (error) => error === explained,
    );
    let calls = 0;
    await assert.rejects(
      postExplained('tr_e2', async () => {
        calls++;
      }),
      /nothing explains why/,
    );
    assert.equal(calls, 1, 'explained once, tried once more, then a bug');
  });

  test('posts balanced journals with balance_after per account, three lines included', async () => {
    const system = await server.database.write((trx) =>
      ensureSystemAccount(trx, orgId, 'sandbox', 'USD', storedTime(new Date())),
    );
    const posted = await post('tr_ok1', [
      { accountId: a, kind: 'customer', amount: -60 },
      { accountId: b, kind: 'customer', amount: 50 },
      { accountId: system, kind: 'system', amount: 10 },
    ]);
    const byAccount = Object.fromEntries(posted.map((p) => [p.accountId, p.balanceAfter]));
    assert.equal(byAccount[a], 40);
    assert.equal(byAccount[b], 50);
    assert.equal(byAccount[system], -90);
    assert.equal(await countLedgerViolations(server.database.db), 0);
  });
});
