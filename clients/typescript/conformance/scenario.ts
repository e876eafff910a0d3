/**
 * The client conformance scenario (clients/README.md), as an application would write it: it imports
 * `@plinth/client` from the packed tarball installed in a scratch app outside the repository, so it also proves
 * the package installs, resolves and type-checks for a consumer. conformance.sh compiles it there and runs it on
 * every Node.js it finds. Each step prints one line; the first failed assertion ends the run with exit 1.
 * Steps 1–12 are here, 13–19 (every other resource) in resources.ts, 20–21 (pending transfers, metadata, filters) in
 * holds.ts, 22 (the request log) in request-log.ts, 23 (reversals, balances at a moment, statements, nicknames) in
 * reversals.ts, 24 (a read-only key) in restricted.ts, 25 (the event stream) in stream.ts, 26 (payments on the
 * sandbox clock) in payments.ts, 27 (the audit chain) in audit.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type Account, PlinthClient, Webhook, WebhookVerificationError } from '@plinth/client';
import { auditStep } from './audit.js';
import { all, refused, required, step, waitFor } from './helpers.js';
import { holdSteps } from './holds.js';
import { paymentStep } from './payments.js';
import { requestLogStep } from './request-log.js';
import { resourceSteps } from './resources.js';
import { restrictedStep } from './restricted.js';
import { reversalStep } from './reversals.js';
import { streamStep } from './stream.js';

const PLINTH_URL = required('PLINTH_URL');
const PLINTH_PROXY_URL = required('PLINTH_PROXY_URL');
const PLINTH_LIMITED_URL = required('PLINTH_LIMITED_URL');
const PLINTH_RECEIVER_URL = required('PLINTH_RECEIVER_URL');

await step('0 every method that methods.json names exists', async () => {
  const manifest = JSON.parse(readFileSync(new URL('./methods.json', import.meta.url), 'utf8')) as Record<
    string,
    string[]
  >;
  const owners: Record<string, unknown> = { ...new PlinthClient({ apiKey: 'sk_test_unused' }), PlinthClient };
  for (const name of Object.values(manifest).flat()) {
    const [owner, method] = name.split('.') as [string, string];
    const target = owners[owner] as Record<string, unknown> | undefined;
    assert.equal(typeof target?.[method], 'function', `${name} is not a method of the installed package`);
  }
});

const signup = await PlinthClient.signUp(PLINTH_URL);
const key: string = signup.api_key.key; // a plain string: a sign-up is never a replay
const plinth = new PlinthClient({ baseUrl: PLINTH_URL, apiKey: key });
assert.match(key, /^sk_test_/);
console.log('ok 1 sign up');

const created: Account[] = [];
let firstRequestId = '';

await step('2 create an account', async () => {
  const account = await plinth.accounts.create({ type: 'business', country: 'US' });
  assert.equal(account.status, 'active');
  assert.equal(account.available_balance.amount, 0);
  assert.equal(account.available_balance.currency, 'USD');
  assert.match(account.id, /^acct_/);
  assert.equal(account.kyb, null);
  assert.match(account.requestId, /^req_/);
  assert.equal(plinth.lastRequestId, account.requestId);
  firstRequestId = account.requestId;
  created.push(account);
});

await step('3 create an account with kyb', async () => {
  const account = await plinth.accounts.create({
    type: 'business',
    country: 'US',
    kyb: { ein: '12-3456789', legal_name: 'Acme Corp' },
  });
  assert.equal(account.kyb?.ein_last4, '6789');
  created.push(account);
});
const [first, second] = created as [Account, Account];

await step('4 retrieve', async () => {
  const account = await plinth.accounts.retrieve(first.id);
  assert.equal(account.id, first.id);
});

await step('4a deposit (sandbox)', async () => {
  const credit = await plinth.sandbox.deposit(first.id, { amount: 10000 });
  assert.match(credit.id, /^txn_/);
  assert.equal(credit.amount, 10000);
  assert.equal(credit.balance_after, 10000);
});

let transferId = '';
await step('4b transfer', async () => {
  // No key given: the client makes one, reused by its retries, so the money moves once.
  const transfer = await plinth.transfers.create({
    from_account_id: first.id,
    to_account_id: second.id,
    amount: 2500,
    currency: 'USD',
  });
  assert.match(transfer.id, /^tr_/);
  assert.equal(transfer.status, 'posted');
  assert.equal(transfer.amount, 2500);
  transferId = transfer.id;
});

await step('4c iterate the transactions', async () => {
  const transactions = await all(plinth.transactions.list(first.id, { limit: 1 }));
  assert.deepEqual(
    transactions.map((t) => [t.amount, t.balance_after]),
    [
      [-2500, 7500],
      [10000, 10000],
    ],
  );
});

await step('4d insufficient funds: 409 with param', async () => {
  const transfer = { from_account_id: first.id, to_account_id: second.id, amount: 999999, currency: 'USD' };
  const error = await refused(() => plinth.transfers.create(transfer), 409, 'insufficient_funds');
  assert.equal(error.param, 'from_account_id');
});

const idempotencyKey = `conformance-${Date.now()}-${Math.random()}`;
await step('5 replay with the same Idempotency-Key', async () => {
  const first = await plinth.accounts.create({ type: 'business', country: 'US' }, { idempotencyKey });
  const again = await plinth.accounts.create({ type: 'business', country: 'US' }, { idempotencyKey });
  assert.equal(again.id, first.id);
  assert.equal(first.replayed, false);
  assert.equal(again.replayed, true);
  created.push(first);
});

await step('6 the same key with another body: 422', async () => {
  const other = { type: 'business', country: 'CA' } as const;
  await refused(() => plinth.accounts.create(other, { idempotencyKey }), 422, 'idempotency_key_reused');
});

await step('7 a bad key: 401', async () => {
  const stranger = new PlinthClient({ baseUrl: PLINTH_URL, apiKey: `sk_test_${'A'.repeat(38)}` });
  await refused(() => stranger.accounts.listPage(), 401, 'api_key_invalid');
});

await step('8 an unknown field: 400 with param', async () => {
  const body = { type: 'business', country: 'US', colour: 'red' };
  const error = await refused(
    () => plinth.request({ method: 'POST', path: '/v1/fintech/accounts', body }),
    400,
    'parameter_unknown',
  );
  assert.equal(error.param, 'colour');
  assert.ok(error.errors.length > 0);
});

await step('9 iterate the list with limit=1', async () => {
  const ids = (await all(plinth.accounts.list({ limit: 1 }))).map((a) => a.id);
  assert.deepEqual(ids, created.map((a) => a.id).reverse());
});

await step('10 429s are retried', async () => {
  const limitedSignup = await PlinthClient.signUp(PLINTH_LIMITED_URL);
  const limited = new PlinthClient({ baseUrl: PLINTH_LIMITED_URL, apiKey: limitedSignup.api_key.key });
  for (let i = 0; i < 6; i++) await limited.accounts.listPage();
  assert.ok(limited.retries >= 1, `expected at least one retry, saw ${limited.retries}`);
});

await step('11 a future server: unknown field, enum value and error code', async () => {
  const future = new PlinthClient({ baseUrl: PLINTH_PROXY_URL, apiKey: key });
  const account = await future.accounts.retrieve(first.id);
  assert.equal(account.id, first.id);
  assert.equal(account.status, 'dormant');
  assert.ok(!('future_field' in account), 'the decoded model keeps only the fields it knows');
  const page = await future.accounts.listPage({ limit: 2 });
  assert.equal(page.data.length, 2);
  await refused(() => future.accounts.retrieve(`acct_${'0'.repeat(26)}`), 404, 'future_error_code');
});

interface Delivery {
  headers: Record<string, string>;
  body: string;
}
const endpoint = await plinth.webhookEndpoints.create({ url: `${PLINTH_RECEIVER_URL}/hook`, enabled_events: ['*'] });
const testEvent = await plinth.webhookEndpoints.test(endpoint.id);
await step('12 a webhook delivery verifies with its secret, not with a changed body or another secret', async () => {
  assert.match(endpoint.secret, /^whsec_/);
  assert.equal(testEvent.type, 'webhook_endpoint.test');
  const delivery = await waitFor(`a delivery of ${testEvent.id}`, 10, async () => {
    const found = (await (await fetch(`${PLINTH_RECEIVER_URL}/deliveries?event=${testEvent.id}`)).json()) as Delivery[];
    return found[0];
  });
  const verified = await Webhook.verify(endpoint.secret, delivery.headers, delivery.body);
  assert.equal(verified.id, testEvent.id);
  assert.equal(verified.type, 'webhook_endpoint.test');
  const body = delivery.body;
  const i = body.indexOf(testEvent.id) + 4; // a character of the id
  const changed = body.slice(0, i) + (body[i] === '0' ? '1' : '0') + body.slice(i + 1);
  await assert.rejects(Webhook.verify(endpoint.secret, delivery.headers, changed), WebhookVerificationError);
  const other = `whsec_${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`;
  await assert.rejects(Webhook.verify(other, delivery.headers, delivery.body), WebhookVerificationError);
});

await resourceSteps(plinth, { first, second, transferId, endpoint, testEventId: testEvent.id });
await holdSteps(plinth, first, second);
await requestLogStep(plinth, firstRequestId);
await reversalStep(plinth);
await restrictedStep(plinth, PLINTH_URL);
await streamStep(plinth, key, PLINTH_PROXY_URL);
await paymentStep(plinth);
await auditStep(plinth);

console.log(`conformance passed on Node.js ${process.version}`);
