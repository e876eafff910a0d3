import assert from 'node:assert/strict';
import { call } from './server.ts';

/** Small clients for the money tests: each asserts success and returns the body. */
export function money(base: string, key: string) {
  const ok = async (method: string, path: string, json?: unknown) => {
    const reply = await call(base, method, path, { key, ...(json === undefined ? {} : { json }) });
    assert.equal(reply.status, 200, `${method} ${path}: ${reply.text}`);
    return reply.body;
  };
  return {
    account: async (country = 'US'): Promise<string> =>
      (await ok('POST', '/v1/fintech/accounts', { type: 'business', country })).id,
    deposit: (id: string, amount: number) => ok('POST', `/v1/sandbox/fintech/accounts/${id}/deposits`, { amount }),
    withdraw: (id: string, amount: number) => ok('POST', `/v1/sandbox/fintech/accounts/${id}/withdrawals`, { amount }),
    transfer: (from: string, to: string, amount: number, currency = 'USD') =>
      ok('POST', '/v1/fintech/transfers', { from_account_id: from, to_account_id: to, amount, currency }),
    balance: async (id: string): Promise<number> =>
      (await ok('GET', `/v1/fintech/accounts/${id}`)).available_balance.amount,
    get: (path: string) => ok('GET', path),
    post: (path: string, json: unknown) => ok('POST', path, json),
  };
}

/**
 * A fresh sandbox org with `count` US accounts, each funded with `start` by a sandbox deposit, made across `urls`
 * in turn (the money property tests' opening).
 */
export async function fundedAccounts(urls: string[], count: number, start: number) {
  const signup = await call(urls[0]!, 'POST', '/v1/sandbox/signup', { json: {} });
  assert.equal(signup.status, 200, signup.text);
  const key: string = signup.body.api_key.key;
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const url = urls[i % urls.length]!;
    const account = await call(url, 'POST', '/v1/fintech/accounts', { key, json: { type: 'business', country: 'US' } });
    assert.equal(account.status, 200, account.text);
    ids.push(account.body.id);
    const path = `/v1/sandbox/fintech/accounts/${account.body.id}/deposits`;
    assert.equal((await call(url, 'POST', path, { key, json: { amount: start } })).status, 200);
  }
  return { key, ids };
}
