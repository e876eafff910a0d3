/**
 * Money in and out (docs/api.md#bank-account-numbers-and-payments, docs/api.md#the-sandbox-clock): account numbers,
 * external accounts, payments over the rails, the sandbox's clock running what falls due, simulations and rules. Each
 * outcome is checked in the ledger too: the payment's transfer, the balances, a statement and `ledger verify`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { run } from '../../helpers/process.ts';
import { call, useServer } from '../../helpers/server.ts';

const PAYMENTS = '/v1/fintech/payments';

describe(`payments and the sandbox clock (${BACKEND})`, () => {
  const server = useServer();

  async function setup(org: string) {
    const key = await server.key(org);
    const m = money(server.url, key);
    const send = (method: string, path: string, json?: unknown) =>
      call(server.url, method, path, { key, ...(json === undefined ? {} : { json }) });
    const account = await m.account();
    const number = await m.post('/v1/fintech/account_numbers', { account_id: account, name: 'Main' });
    const external = await m.post('/v1/fintech/external_accounts', {
      routing_number: '021000021',
      account_number: '000123456789',
      account_holder_name: 'Acme Supplies LLC',
      account_type: 'checking',
    });
    const balances = async () => {
      const a = await m.get(`/v1/fintech/accounts/${account}`);
      return { current: a.current_balance.amount, available: a.available_balance.amount };
    };
    const clock = async () => m.get('/v1/sandbox/clock');
    const advance = async (to: string) => m.post('/v1/sandbox/clock/advance', { to });
    return { key, m, send, account, number, external, balances, clock, advance };
  }

  /** 09:00 New York on the first business day after `iso`, plus a minute (settlement has run by then). */
  function afterNextSettlement(iso: string): string {
    let at = Date.parse(iso);
    for (;;) {
      at += 86_400_000;
      const day = new Date(at).getUTCDay();
      if (day !== 0 && day !== 6) break;
    }
    // 15:00 UTC is 10:00 or 11:00 in New York: after 09:00 settlement, before the 16:00 cut-off.
    return `${new Date(at).toISOString().slice(0, 10)}T15:00Z`;
  }

  test('the scenario: in 100, out 60 by ACH, settled on the next business day, returned R01 two days on', async () => {
    const s = await setup('pay-scenario');
    assert.match(s.number.account_number, /^[0-9]{12}$/, 'the number in full, once');
    assert.equal(s.number.routing_number, '110000000');
    const again = await s.m.get(`/v1/fintech/account_numbers/${s.number.id}`);
    assert.equal(again.account_number, null, 'never again in full');
    assert.equal(again.account_number_last4, s.number.account_number.slice(-4));

    const inbound = await s.m.post('/v1/sandbox/fintech/inbound_payments', {
      account_number: s.number.account_number,
      amount: 100,
      rail: 'ach',
      direction: 'credit',
      originator_name: 'Globex Corporation',
    });
    assert.equal(inbound.status, 'settled');
    assert.equal(inbound.direction, 'inbound');
    assert.equal(inbound.account_number_id, s.number.id);
    assert.deepEqual(await s.balances(), { current: 100, available: 100 });

    // Move the clock to a weekday morning first, so that the cut-off and settlement are the same in every run.
    const start = await s.clock();
    await s.advance(afterNextSettlement(start.now));
    const payment = await s.m.post(PAYMENTS, {
      account_id: s.account,
      external_account_id: s.external.id,
      amount: 60,
      currency: 'USD',
      rail: 'ach',
    });
    assert.equal(payment.status, 'pending_submission');
    assert.deepEqual(await s.balances(), { current: 100, available: 40 }, 'held at once, moved at settlement');
    const balancesAt = async (at: string) => {
      const b = await s.m.get(`/v1/fintech/accounts/${s.account}/balances?at=${encodeURIComponent(at)}`);
      return { current: b.current_balance.amount, available: b.available_balance.amount };
    };
    const pendingAt = (await s.clock()).now;
    assert.deepEqual(await balancesAt(pendingAt), { current: 100, available: 40 }, 'an open hold with no expiry');
    const transfer = await s.m.get(`/v1/fintech/transfers/${payment.transfer_id}`);
    assert.equal(transfer.status, 'pending');
    assert.match(transfer.to_account_id, /^sys_.*_ach$/, 'to the ACH clearing account');

    const settledAt = afterNextSettlement((await s.clock()).now);
    await s.advance(settledAt);
    const settled = await s.m.get(`${PAYMENTS}/${payment.id}`);
    assert.equal(settled.status, 'settled');
    assert.ok(settled.submitted_at < settled.settled_at, `${settled.submitted_at} then ${settled.settled_at}`);
    assert.match(settled.settled_at, /T1[34]:00Z$/, '09:00 New York');
    assert.deepEqual(await s.balances(), { current: 40, available: 40 });
    assert.deepEqual(await balancesAt(pendingAt), { current: 100, available: 40 }, 'the past, unchanged');

    await s.m.post('/v1/sandbox/fintech/payment_rules', {
      match: { amount: 60 },
      action: { return: 'R01', at: 'P2D' },
    });
    await s.advance(new Date(Date.parse(settledAt) + 3 * 86_400_000).toISOString());
    const returned = await s.m.get(`${PAYMENTS}/${payment.id}`);
    assert.equal(returned.status, 'returned');
    assert.deepEqual(returned.return_reason, { code: 'R01', description: 'Insufficient funds' });
    const reversals = await s.m.get(`/v1/fintech/transfers/${payment.transfer_id}/reversals`);
    assert.equal(reversals.data.length, 1);
    assert.match(reversals.data[0].description, /^R01/);
    assert.deepEqual(await s.balances(), { current: 100, available: 100 });

    const statement = await s.m.get(
      `/v1/fintech/accounts/${s.account}/statement?from=${encodeURIComponent(start.now)}&to=${encodeURIComponent((await s.clock()).now)}`,
    );
    assert.equal(statement.closing_balance, 100);
    assert.equal(statement.opening_balance + statement.credits.amount - statement.debits.amount, 100);
    assert.deepEqual([statement.credits.count, statement.debits.count], [1, 1], 'the return, and the settlement');
    const verify = await run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: server.databaseUrl });
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    assert.match(verify.stdout, /payment's status agrees with its transfer.*\([1-9]\d* checked\)/);
    assert.match(verify.stdout, /clearing account holds exactly.*\([1-9]\d* checked\)/);
    // Behind the ledger's back: a returned payment marked settled again is named, with its clearing account.
    await server.database.write((trx) =>
      sql`update payments set status = 'settled' where id = ${payment.id}`.execute(trx),
    );
    const bad = await run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: server.databaseUrl });
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, new RegExp(`VIOLATION.*status agrees[\\s\\S]*${payment.id}`));
  });

  test('a wire in banking hours and RTP settle at once; a rule rejects a wire; cancel only before submission', async () => {
    const s = await setup('pay-rails');
    await s.m.post(`/v1/sandbox/fintech/accounts/${s.account}/deposits`, { amount: 1000 });
    await s.advance(afterNextSettlement((await s.clock()).now));
    const pay = (rail: string, amount: number) =>
      s.m.post(PAYMENTS, { account_id: s.account, external_account_id: s.external.id, amount, currency: 'USD', rail });
    assert.equal((await pay('rtp', 10)).status, 'settled');
    assert.equal((await pay('wire', 20)).status, 'settled');
    await s.m.post('/v1/sandbox/fintech/payment_rules', { match: { rail: 'wire' }, action: { reject: true } });
    const rejected = await pay('wire', 30);
    assert.equal(rejected.status, 'rejected');
    assert.equal((await s.m.get(`/v1/fintech/transfers/${rejected.transfer_id}`)).status, 'voided');
    const ach = await pay('ach', 40);
    const canceled = await s.m.post(`${PAYMENTS}/${ach.id}/cancel`, {});
    assert.equal(canceled.status, 'canceled');
    assertProblem(await s.send('POST', `${PAYMENTS}/${ach.id}/cancel`, {}), 'payment_state_invalid', 'id');
    assertProblem(
      await s.send('POST', `/v1/fintech/transfers/${ach.transfer_id}/post`, {}),
      'payment_state_invalid',
      'id',
    );
    assert.deepEqual(await s.balances(), { current: 970, available: 970 });
  });

  test('a payment whose account is frozen at settlement waits, and settles once it is unfrozen', async () => {
    const s = await setup('pay-frozen');
    await s.m.post(`/v1/sandbox/fintech/accounts/${s.account}/deposits`, { amount: 500 });
    await s.advance(afterNextSettlement((await s.clock()).now));
    const payment = await s.m.post(PAYMENTS, {
      account_id: s.account,
      external_account_id: s.external.id,
      amount: 200,
      currency: 'USD',
      rail: 'ach',
    });
    await s.m.post(`/v1/fintech/accounts/${s.account}/freeze`, { reason: 'compliance_review' });
    const twoDays = afterNextSettlement(afterNextSettlement((await s.clock()).now));
    await s.advance(twoDays);
    const waiting = await s.m.get(`${PAYMENTS}/${payment.id}`);
    assert.equal(waiting.status, 'submitted', 'nothing moves on a frozen account');
    assert.deepEqual(await s.balances(), { current: 500, available: 300 });
    await s.m.post(`/v1/fintech/accounts/${s.account}/unfreeze`, {});
    await s.advance(afterNextSettlement(twoDays));
    assert.equal((await s.m.get(`${PAYMENTS}/${payment.id}`)).status, 'settled');
    assert.deepEqual(await s.balances(), { current: 300, available: 300 });
  });

  test('inbound payments are returned R02, R16, R29, R01 and move nothing', async () => {
    const s = await setup('pay-inbound');
    const inbound = (direction: string, amount: number) =>
      s.m.post('/v1/sandbox/fintech/inbound_payments', {
        account_number: s.number.account_number,
        amount,
        rail: 'ach',
        direction,
        originator_name: 'Globex',
      });
    assert.equal((await inbound('debit', 5)).return_reason.code, 'R29');
    await s.m.post(`/v1/fintech/account_numbers/${s.number.id}`, { inbound_debits: 'allowed' });
    assert.equal((await inbound('debit', 5)).return_reason.code, 'R01');
    await s.m.post(`/v1/fintech/accounts/${s.account}/freeze`, { reason: 'suspected_fraud' });
    assert.equal((await inbound('credit', 5)).return_reason.code, 'R16');
    await s.m.post(`/v1/fintech/accounts/${s.account}/unfreeze`, {});
    await s.m.post(`/v1/fintech/account_numbers/${s.number.id}`, { status: 'disabled' });
    assert.equal((await inbound('credit', 5)).return_reason.code, 'R02');
    assert.deepEqual(await s.balances(), { current: 0, available: 0 });
    const unknown = await s.send('POST', '/v1/sandbox/fintech/inbound_payments', {
      account_number: '000000000000',
      amount: 5,
      rail: 'ach',
      direction: 'credit',
      originator_name: 'Globex',
    });
    assertProblem(unknown, 'resource_not_found', 'account_number');
    assert.ok(!unknown.text.includes('000000000000'), 'the number is not echoed');
  });

  test('the clock only goes forward; a routing number with a bad check digit is refused', async () => {
    const s = await setup('pay-refusals');
    const now = await s.clock();
    assertProblem(
      await s.send('POST', '/v1/sandbox/clock/advance', { to: '2020-01-01T00:00Z' }),
      'parameter_invalid',
      'to',
    );
    assert.ok((await s.clock()).offset_seconds >= now.offset_seconds);
    const bad = await s.send('POST', '/v1/fintech/external_accounts', {
      routing_number: '021000022',
      account_number: '1234',
      account_holder_name: 'X',
      account_type: 'savings',
    });
    assertProblem(bad, 'parameter_invalid', 'routing_number');
  });
});
