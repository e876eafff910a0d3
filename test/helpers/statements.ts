import assert from 'node:assert/strict';
import { call } from './server.ts';

export interface Totals {
  credits: { count: number; amount: number };
  debits: { count: number; amount: number };
}

/**
 * The period's transactions as a client reads them (docs/api.md#balances-over-time-and-statements): the account's
 * list with `created[gte]=from&created[lt]=to`, paged `limit` at a time, and their credits and debits counted and
 * summed (as positive amounts), as the statement states them.
 */
export async function periodTotals(
  url: string,
  key: string,
  account: string,
  from: string,
  to: string,
  limit = 2,
): Promise<Totals> {
  const seen: { id: string; amount: number }[] = [];
  let after = '';
  const range = `created[gte]=${encodeURIComponent(from)}&created[lt]=${encodeURIComponent(to)}`;
  for (;;) {
    const path = `/v1/fintech/accounts/${account}/transactions?${range}&limit=${limit}${after}`;
    const page = await call(url, 'GET', path, { key });
    assert.equal(page.status, 200, page.text);
    seen.push(...page.body.data);
    if (!page.body.has_more) break;
    after = `&starting_after=${page.body.data.at(-1).id}`;
  }
  assert.equal(new Set(seen.map((t) => t.id)).size, seen.length, 'no transaction twice');
  const credits = seen.filter((t) => t.amount > 0);
  const debits = seen.filter((t) => t.amount < 0);
  return {
    credits: { count: credits.length, amount: credits.reduce((n, t) => n + t.amount, 0) },
    debits: { count: debits.length, amount: debits.reduce((n, t) => n - t.amount, 0) },
  };
}
