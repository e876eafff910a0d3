/**
 * The README's TypeScript examples: conformance.sh compiles this against the installed package's .d.ts and runs it
 * against PLINTH_URL, so that an example that no longer compiles or works fails the client's test. Between the
 * markers: written by scripts/clients/readme.ts from ../README.md (edit the README, then run
 * `node scripts/clients/readme.ts typescript`). Above them: what the examples use but do not define (a client,
 * funded accounts, a posted transfer, a signed webhook delivery); the end runs every example in order.
 */
import { createHmac } from 'node:crypto';
import { PlinthClient, PlinthError } from '@plinth/client';

const url = process.env.PLINTH_URL!;
const plinth = new PlinthClient({ baseUrl: url, apiKey: (await PlinthClient.signUp(url)).api_key.key });
const account = await plinth.accounts.create({ type: 'business', country: 'US' });
const customer = account;
const merchant = await plinth.accounts.create({ type: 'business', country: 'US' });
const [a, b] = [customer.id, merchant.id];
await plinth.sandbox.deposit(a, { amount: 10_000 });
const transfer = await plinth.transfers.create({ from_account_id: a, to_account_id: b, amount: 3000, currency: 'USD' });
// A delivery of a real event, signed as the server signs one (docs/api.md#webhooks).
const secret = `whsec_${Buffer.from('readme-examples-secret-32-bytes!').toString('base64')}`;
const { data } = await plinth.events.listPage({ limit: 1 });
const rawBody = JSON.stringify(await plinth.request({ method: 'GET', path: `/v1/events/${data[0]!.id}` }));
const timestamp = String(Math.floor(Date.now() / 1000));
const mac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'));
const signature = mac.update(`${data[0]!.id}.${timestamp}.${rawBody}`).digest('base64');
const request = {
  headers: { 'webhook-id': data[0]!.id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` },
};

const examples: (() => Promise<void>)[] = [];
// readme-examples:start
import { Webhook, WebhookVerificationError } from '@plinth/client';

examples.push(async function example1(): Promise<void> {
  try {
    await plinth.transfers.create({ from_account_id: a, to_account_id: b, amount: 999999, currency: 'USD' });
  } catch (e) {
    if (e instanceof PlinthError && e.code === 'insufficient_funds') console.log(e.status, e.param, e.requestId); // 409 from_account_id req_…
    else throw e;
  }
});

examples.push(async function example2(): Promise<void> {
  for await (const account of plinth.accounts.list({ status: 'frozen', limit: 100 })) console.log(account.id);
  const page = await plinth.transfers.listPage({ account_id: account.id, limit: 10 });
  if (page.has_more) await plinth.transfers.listPage({ account_id: account.id, starting_after: page.data.at(-1)!.id });
});

examples.push(async function example3(): Promise<void> {
  await plinth.accounts.update(account.id, { metadata: { customer: 'c-42', legacy_ref: '' } }); // set one, remove one
  await plinth.accounts.update(account.id, { metadata: '' }); // remove every key
});

examples.push(async function example4(): Promise<void> {
  const lastDay = { gte: new Date(Date.now() - 86_400_000) };
  for await (const t of plinth.transfers.list({ metadata: { order: 'A-1' }, created: lastDay })) console.log(t.id);
});

examples.push(async function example5(): Promise<void> {
  const parties = { from_account_id: customer.id, to_account_id: merchant.id };
  const hold = await plinth.transfers.create({
    ...parties,
    amount: 4000,
    currency: 'USD',
    pending: true, // authorise: 4000 leaves customer's available balance, nothing moves yet
    expires_in_seconds: 3600,
    metadata: { order: 'A-1' },
  });
  const captured = await plinth.transfers.post(hold.id, { amount: 2500 }); // capture 2500; the other 1500 is released
  console.log(captured.status, captured.posted_amount); // posted 2500

  const other = await plinth.transfers.create({ ...parties, amount: 1000, currency: 'USD', pending: true });
  await plinth.transfers.void(other.id); // release it all: voided, nothing moves
});

examples.push(async function example6(): Promise<void> {
  const refund = await plinth.transfers.reverse(transfer.id, { amount: 1000, description: 'refund' }); // trr_…
  const after = await plinth.transfers.retrieve(transfer.id);
  console.log(after.amount_reversed, after.reversed); // 1000 false (true once all of it is reversed)
  for await (const r of plinth.transfers.listReversals(transfer.id)) console.log(r.id, r.amount);
  await plinth.transfers.retrieveReversal(transfer.id, refund.id);
});

examples.push(async function example7(): Promise<void> {
  const then = await plinth.accounts.balances(account.id, { at: account.created_at }); // not before it was opened
  console.log(then.current_balance.amount, then.available_balance.amount);
  const now = Date.now();
  const november = await plinth.accounts.statement(account.id, { from: new Date(now - 30 * 86_400_000), to: new Date(now) });
  const { opening_balance, credits, debits, closing_balance } = november; // closing = opening + credits − debits
});

examples.push(async function example8(): Promise<void> {
  const readOnly = await plinth.apiKeys.create({
    name: 'balances dashboard',
    permissions: { accounts: 'read', transactions: 'read' },
  });
  console.log(readOnly.key.slice(0, 8), readOnly.permissions?.transfers); // rk_test_ none
  const reader = new PlinthClient({ baseUrl: process.env.PLINTH_URL, apiKey: readOnly.key });
  await reader.accounts.retrieve(account.id); // allowed: accounts: read
  await reader.accounts.balances(account.id); // allowed: transactions: read
  await reader.transfers.create({ from_account_id: a, to_account_id: b, amount: 100, currency: 'USD' });
  // PlinthError: 403 permission_denied, "This key has transfers: none; POST /v1/fintech/transfers needs transfers: write."
});

examples.push(async function example9(): Promise<void> {

  const event = await Webhook.verify(secret, request.headers, rawBody, { toleranceSeconds: 300 }); // the parsed event
});

examples.push(async function example10(): Promise<void> {
  // From the oldest account still kept, then live; break (or stop.abort()) ends it and closes the connection.
  const stop = new AbortController();
  for await (const event of plinth.events.stream({ type: 'fintech.account.created', after: 0, signal: stop.signal })) {
    console.log(event.sequence, event.type, event.data.object.id);
    if (event.data.object.id === a) break; // the account we waited for
  }
});

examples.push(async function example11(): Promise<void> {
  const checkpoint = await plinth.audit.retrieveCheckpoint();
  for (let after = 0; after < checkpoint.size; ) {
    for (const link of (await plinth.audit.listChain({ after, limit: 1000 })).data) {
      after = link.sequence;
      if (after === checkpoint.size) console.log(link.hash === checkpoint.hash); // true: the chain ends there
    }
  }
});
// readme-examples:end

for (const example of examples) {
  try {
    await example();
  } catch (error) {
    // The read-only key's example ends on the call its key may not make, as the README says.
    if (!(error instanceof PlinthError && error.code === 'permission_denied')) throw error;
  }
  console.log(`ok ${example.name}`);
}
console.log(`the README's ${examples.length} examples ran`);
