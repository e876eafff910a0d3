/**
 * Account numbers are secrets (docs/api.md#bank-account-numbers-and-payments): past the answer that creates one, a
 * number shows as its last four digits only, and so it does in every log line and in the request log (its stored
 * request body, answer, query and detail), end to end: the requests are made over HTTP, the request log is read
 * through the API, and the server's own log lines and the rows are searched for every full number. An Idempotency-Key
 * record keeps the create answer with `account_number: null`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { assertProblem } from '../../helpers/problem.ts';
import { entryOf } from '../../helpers/request-log.ts';
import { useServer } from '../../helpers/server.ts';
import { client } from '../../helpers/webhooks.ts';

describe(`account numbers in the logs: their last four only (${BACKEND})`, () => {
  const server = useServer();

  test('every number sent or shown is ••••1234 in the request log and absent from log lines and stored rows', async () => {
    const api = await client(server, 'numbers-logs');
    const send = api.post;
    const m = money(server.url, api.key);
    const account = await m.account();
    const requests: string[] = [];
    const sent = (reply: { headers: Headers }) => requests.push(reply.headers.get('request-id')!);

    // An account number, made under an Idempotency-Key and asked for again with it.
    const made = await send('/v1/fintech/account_numbers', { account_id: account }, { 'idempotency-key': 'an-1' });
    assert.equal(made.status, 200, made.text);
    sent(made);
    const number: string = made.body.account_number;
    assert.match(number, /^[0-9]{12}$/);
    const replay = await send('/v1/fintech/account_numbers', { account_id: account }, { 'idempotency-key': 'an-1' });
    assert.equal(replay.body.id, made.body.id, 'a replay');
    assert.equal(replay.body.account_number, null, 'a replay shows the number as null');

    // An external account, a rule matching another number, money in to the account number, a payment out and a
    // notification of change correcting both the routing and the account number.
    const externalNumber = '5550001234567';
    const external = await send('/v1/fintech/external_accounts', {
      routing_number: '021000021',
      account_number: externalNumber,
      account_holder_name: 'Acme Supplies LLC',
      account_type: 'checking',
    });
    assert.equal(external.status, 200, external.text);
    sent(external);
    const ruleNumber = '88877766655';
    const rule = await send('/v1/sandbox/fintech/payment_rules', {
      match: { external_account_number: ruleNumber },
      action: { return: 'R03', at: 'settlement' },
    });
    assert.equal(rule.status, 200, rule.text);
    sent(rule);
    const inbound = await send('/v1/sandbox/fintech/inbound_payments', {
      account_number: number,
      amount: 5000,
      rail: 'ach',
      direction: 'credit',
      originator_name: 'Globex Corporation',
    });
    assert.equal(inbound.status, 200, inbound.text);
    sent(inbound);
    const payment = await send('/v1/fintech/payments', {
      account_id: account,
      external_account_id: external.body.id,
      amount: 100,
      currency: 'USD',
      rail: 'ach',
    });
    assert.equal(payment.status, 200, payment.text);
    const correctedNumber = '444333222111';
    const change = await send(`/v1/sandbox/fintech/payments/${payment.body.id}/notification_of_change`, {
      code: 'C03',
      corrected_data: `021000021 ${correctedNumber}`,
    });
    assert.equal(change.status, 200, change.text);
    sent(change);

    // Refusals keep their body and detail: a number of nobody's, one of the wrong length, one in a query string.
    const unknownNumber = '999988887777';
    const unknown = await send('/v1/sandbox/fintech/inbound_payments', {
      account_number: unknownNumber,
      amount: 1,
      rail: 'ach',
      direction: 'credit',
      originator_name: 'G',
    });
    assertProblem(unknown, 'resource_not_found', 'account_number');
    sent(unknown);
    const longNumber = '7710935248219';
    const long = await send('/v1/sandbox/fintech/inbound_payments', {
      account_number: longNumber,
      amount: 1,
      rail: 'ach',
      direction: 'credit',
      originator_name: 'G',
    });
    assertProblem(long, 'parameter_invalid', 'account_number');
    sent(long);
    const queried = await api.get(`/v1/fintech/account_numbers?account_number=${number}`);
    assertProblem(queried, 'parameter_unknown', 'account_number');
    sent(queried);

    const full = [number, externalNumber, ruleNumber, correctedNumber, unknownNumber, longNumber];
    const lastFour = (n: string) => `••••${n.slice(-4)}`;
    const entries = [];
    for (const id of requests) entries.push(await entryOf(api, id));
    const seen = JSON.stringify(entries);
    for (const n of full) assert.ok(!seen.includes(n), `the request log shows ${n} in full: ${seen}`);
    const [created, externalEntry, ruleEntry, inboundEntry, changeEntry, unknownEntry, longEntry, queryEntry] = entries;
    assert.equal(JSON.parse(created.response_body).account_number, lastFour(number), 'the create answer');
    assert.equal(JSON.parse(externalEntry.body).account_number, lastFour(externalNumber));
    assert.equal(JSON.parse(ruleEntry.body).match.external_account_number, lastFour(ruleNumber));
    assert.equal(JSON.parse(inboundEntry.body).account_number, lastFour(number));
    assert.equal(JSON.parse(changeEntry.body).corrected_data, lastFour(correctedNumber));
    assert.equal(JSON.parse(unknownEntry.body).account_number, lastFour(unknownNumber));
    assert.equal(JSON.parse(longEntry.body).account_number, lastFour(longNumber));
    assert.equal(queryEntry.query, `account_number=${lastFour(number)}`);

    // Nor anywhere the server keeps or writes: the request log's rows, the kept answers of Idempotency-Keys, the log.
    await server.app.requestLog.flush();
    const rows = JSON.stringify(await server.database.db.selectFrom('request_logs').selectAll().execute());
    const kept = await server.database.db.selectFrom('idempotency_keys').selectAll().execute();
    const logs = server.logs.join('\n');
    for (const n of full) {
      assert.ok(!rows.includes(n), `a request_logs row holds ${n}`);
      assert.ok(!JSON.stringify(kept).includes(n), `an idempotency record holds ${n}`);
      assert.ok(!logs.includes(n), `a log line holds ${n}`);
    }
    const record = kept.find((r) => r.key === 'an-1');
    assert.ok(record, 'the Idempotency-Key was kept');
    assert.equal(JSON.parse(record.response_body).account_number, null);
    assert.equal(JSON.parse(record.response_body).account_number_last4, number.slice(-4));
  });
});
