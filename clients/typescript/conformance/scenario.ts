/**
 * The client conformance scenario (clients/README.md), as an application would write it: it imports
 * `@plinth/client` from the packed tarball installed in a scratch app outside the repository, so it also proves
 * the package installs, resolves and type-checks for a consumer. conformance.sh compiles it there and runs it on
 * every Node.js it finds. Each step prints one line; the first failed assertion ends the run with exit 1.
 */
import assert from 'node:assert/strict';
import { type Account, PlinthClient, PlinthError, Webhook, WebhookVerificationError } from '@plinth/client';

const PLINTH_URL = required('PLINTH_URL');
const PLINTH_PROXY_URL = required('PLINTH_PROXY_URL');
const PLINTH_LIMITED_URL = required('PLINTH_LIMITED_URL');
const PLINTH_RECEIVER_URL = required('PLINTH_RECEIVER_URL');

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

async function step(name: string, run: () => Promise<void>): Promise<void> {
  await run();
  console.log(`ok ${name}`);
}

/** The call must fail with the client's one typed error, with this status and code; returns it for more checks. */
async function refused(call: () => Promise<unknown>, status: number, code: string): Promise<PlinthError> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof PlinthError, `expected a PlinthError, got ${String(error)}`);
    assert.equal(error.status, status, error.message);
    assert.equal(error.code, code, error.message);
    assert.match(error.requestId ?? '', /^req_/);
    return error;
  }
  assert.fail(`expected ${status} ${code}, the call succeeded`);
}

const signup = await PlinthClient.signUp(PLINTH_URL);
const key = signup.api_key.key!;
const plinth = new PlinthClient({ baseUrl: PLINTH_URL, apiKey: key });
console.log('ok 1 sign up');
const created: Account[] = [];

await step('2 create an account', async () => {
  const account = await plinth.accounts.create({ type: 'business', country: 'US' });
  assert.equal(account.status, 'active');
  assert.equal(account.available_balance.amount, 0);
  assert.equal(account.available_balance.currency, 'USD');
  assert.match(account.id, /^acct_/);
  assert.equal(account.kyb, null);
  assert.match(account.requestId, /^req_/);
  assert.equal(plinth.lastRequestId, account.requestId);
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

await step('4 retrieve', async () => {
  const account = await plinth.accounts.retrieve(created[0]!.id);
  assert.equal(account.id, created[0]!.id);
});

await step('4a deposit (sandbox)', async () => {
  const credit = await plinth.sandbox.deposit(created[0]!.id, { amount: 10000 });
  assert.match(credit.id, /^txn_/);
  assert.equal(credit.amount, 10000);
  assert.equal(credit.balance_after, 10000);
});

await step('4b transfer', async () => {
  // No key given: the client makes one, reused by its retries, so the money moves once.
  const transfer = await plinth.transfers.create({
    from_account_id: created[0]!.id,
    to_account_id: created[1]!.id,
    amount: 2500,
    currency: 'USD',
  });
  assert.match(transfer.id, /^tr_/);
  assert.equal(transfer.status, 'posted');
  assert.equal(transfer.amount, 2500);
});

await step('4c iterate the transactions', async () => {
  const transactions = [];
  for await (const t of plinth.accounts.transactions(created[0]!.id, { limit: 1 })) transactions.push(t);
  assert.deepEqual(
    transactions.map((t) => [t.amount, t.balance_after]),
    [
      [-2500, 7500],
      [10000, 10000],
    ],
  );
});

await step('4d insufficient funds: 409 with param', async () => {
  const error = await refused(
    () =>
      plinth.transfers.create({
        from_account_id: created[0]!.id,
        to_account_id: created[1]!.id,
        amount: 999999,
        currency: 'USD',
      }),
    409,
    'insufficient_funds',
  );
  assert.equal(error.param, 'from_account_id');
});

const idempotencyKey = `conformance-${Date.now()}-${Math.random()}`;
await step('5 replay with the same Idempotency-Key', async () => {
  const first = await plinth.accounts.create({ type: 'business', country: 'US' }, { idempotencyKey });
  const again = await plinth.accounts.create({ type: 'business', country: 'US' }, { idempotencyKey });
  assert.equal(again.id, first.id);
  created.push(first);
});

await step('6 the same key with another body: 422', async () => {
  await refused(
    () => plinth.accounts.create({ type: 'business', country: 'CA' }, { idempotencyKey }),
    422,
    'idempotency_key_reused',
  );
});

await step('7 a bad key: 401', async () => {
  const stranger = new PlinthClient({ baseUrl: PLINTH_URL, apiKey: `sk_test_${'A'.repeat(38)}` });
  await refused(() => stranger.accounts.list(), 401, 'api_key_invalid');
});

await step('8 an unknown field: 400 with param', async () => {
  const error = await refused(
    () =>
      plinth.request({
        method: 'POST',
        path: '/v1/fintech/accounts',
        body: { type: 'business', country: 'US', colour: 'red' },
      }),
    400,
    'parameter_unknown',
  );
  assert.equal(error.param, 'colour');
  assert.ok(error.errors.length > 0);
});

await step('9 iterate the list with limit=1', async () => {
  const ids: string[] = [];
  for await (const account of plinth.accounts.listAll({ limit: 1 })) ids.push(account.id);
  const expected = created.map((a) => a.id).reverse();
  assert.deepEqual(ids, expected);
});

await step('10 429s are retried', async () => {
  const limitedSignup = await PlinthClient.signUp(PLINTH_LIMITED_URL);
  const limited = new PlinthClient({ baseUrl: PLINTH_LIMITED_URL, apiKey: limitedSignup.api_key.key! });
  for (let i = 0; i < 6; i++) await limited.accounts.list();
  assert.ok(limited.retries >= 1, `expected at least one retry, saw ${limited.retries}`);
});

await step('11 a future server: unknown field, enum value and error code', async () => {
  const future = new PlinthClient({ baseUrl: PLINTH_PROXY_URL, apiKey: key });
  const account = await future.accounts.retrieve(created[0]!.id);
  assert.equal(account.id, created[0]!.id);
  assert.equal(account.status, 'dormant');
  assert.ok(!('future_field' in account), 'the decoded model keeps only the fields it knows');
  const page = await future.accounts.list({ limit: 2 });
  assert.equal(page.data.length, 2);
  await refused(() => future.accounts.retrieve(`acct_${'0'.repeat(26)}`), 404, 'future_error_code');
});

await step('12 a webhook delivery verifies with its secret, not with a changed body or another secret', async () => {
  const endpoint = await plinth.request<{ id: string; secret: string }>({
    method: 'POST',
    path: '/v1/webhook_endpoints',
    body: { url: `${PLINTH_RECEIVER_URL}/hook`, enabled_events: ['*'] },
  });
  assert.match(endpoint.secret, /^whsec_/);
  const event = await plinth.request<{ id: string; type: string }>({
    method: 'POST',
    path: `/v1/webhook_endpoints/${endpoint.id}/test`,
  });
  assert.equal(event.type, 'webhook_endpoint.test');
  let delivery: { headers: Record<string, string>; body: string } | undefined;
  for (const deadline = Date.now() + 10_000; !delivery && Date.now() < deadline; ) {
    const found = (await (await fetch(`${PLINTH_RECEIVER_URL}/deliveries?event=${event.id}`)).json()) as {
      headers: Record<string, string>;
      body: string;
    }[];
    if (found.length > 0) delivery = found[0];
    else await new Promise((wait) => setTimeout(wait, 100));
  }
  assert.ok(delivery, `no delivery of ${event.id} within 10 s`);
  const verified = await Webhook.verify(endpoint.secret, delivery.headers, delivery.body);
  assert.equal(verified.id, event.id);
  assert.equal(verified.type, 'webhook_endpoint.test');
  const body = delivery.body;
  const i = body.indexOf(event.id) + 4; // a character of the id
  const changed = body.slice(0, i) + (body[i] === '0' ? '1' : '0') + body.slice(i + 1);
  await assert.rejects(Webhook.verify(endpoint.secret, delivery.headers, changed), WebhookVerificationError);
  const other = `whsec_${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`;
  await assert.rejects(Webhook.verify(other, delivery.headers, delivery.body), WebhookVerificationError);
});

console.log(`conformance passed on Node.js ${process.version}`);
