import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fundedAccounts } from './money.ts';
import { call, type Reply } from './server.ts';

/**
 * An answer about the past never changes (docs/api.md#balances-over-time-and-statements): while movements of money
 * run at once over every server process (deposits, withdrawals, transfers, holds posted or voided), balances and
 * statements are asked about moments near now (now, a few milliseconds ago, the default, a moment after now); once
 * the writes are over, each is asked again with the moments its answer echoed, and must answer the same.
 */
const ACCOUNTS = 3;
const START = 100_000;
const LANES = 6;

const account = fc.nat(ACCOUNTS - 1);
type Op =
  | { kind: 'deposit' | 'withdraw'; at: number; amount: number }
  | { kind: 'transfer' | 'hold'; from: number; shift: number; amount: number }
  | { kind: 'post' | 'void'; which: number };
const amount = fc.integer({ min: 1, max: 500 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('deposit' as const, 'withdraw' as const), at: account, amount }),
  fc.record({
    kind: fc.constantFrom('transfer' as const, 'hold' as const),
    from: account,
    shift: fc.integer({ min: 1, max: ACCOUNTS - 1 }),
    amount,
  }),
  fc.record({ kind: fc.constantFrom('post' as const, 'void' as const), which: fc.nat(20) }),
);
/** What is asked: `now` and `ago` name an instant (ago: that many ms before now), `default` none, `later` after now. */
const ask = fc.record({
  account,
  what: fc.constantFrom('balances' as const, 'statement' as const),
  when: fc.constantFrom('now' as const, 'ago' as const, 'default' as const, 'later' as const),
  ago: fc.integer({ min: 1, max: 50 }),
});
export const plans = fc.record({
  ops: fc.array(op, { minLength: 30, maxLength: 60 }),
  asks: fc.array(ask, { minLength: 20, maxLength: 40 }),
});
type Plan = typeof plans extends fc.Arbitrary<infer T> ? T : never;
type Ask = Plan['asks'][number];

const iso = (ms: number) => new Date(ms).toISOString();

/** The query of an ask, and the instant it names when it names one (what the answer must echo). */
function question(a: Ask, opened: string, ready: number): { query: string; named?: string } {
  const now = Date.now();
  // A moment ago, but not before the accounts were opened (which is refused).
  const moment = a.when === 'now' ? iso(now) : a.when === 'ago' ? iso(Math.max(ready, now - a.ago)) : undefined;
  const later = iso(now + 3_600_000);
  if (a.what === 'balances') {
    if (a.when === 'default') return { query: '' };
    return moment === undefined ? { query: `?at=${later}` } : { query: `?at=${moment}`, named: moment };
  }
  const to = a.when === 'default' ? '2999-01-01T00:00Z' : (moment ?? later);
  return { query: `?from=${opened}&to=${to}`, ...(moment === undefined ? {} : { named: moment }) };
}

/** The same question as its answer's moments state it. */
function askedAgain(what: Ask['what'], body: any): string {
  return what === 'balances' ? `?at=${body.at}` : `?from=${body.from}&to=${body.to}`;
}

export async function runPastScenario(urls: string[], plan: Plan): Promise<void> {
  // Every statement starts a minute before the accounts were opened (its opening balance is 0).
  const opened = iso(Date.now() - 60_000);
  const { key, ids } = await fundedAccounts(urls, ACCOUNTS, START);
  const ready = Date.now();
  let n = 0;
  const send = (method: string, path: string, json?: unknown): Promise<Reply> =>
    call(urls[n++ % urls.length]!, method, path, { key, ...(json === undefined ? {} : { json }) });
  const holds: string[] = [];
  const queue = [...plan.ops];
  const writer = async () => {
    for (let o = queue.shift(); o !== undefined; o = queue.shift()) {
      const reply = await perform(send, ids, holds, o);
      if (reply !== null) assert.ok(reply.status < 500, `${reply.status} ${reply.text}`);
    }
  };
  const answers: { path: string; what: Ask['what']; named?: string; body: any }[] = [];
  const reader = async () => {
    for (const a of plan.asks) {
      const { query, named } = question(a, opened, ready);
      const path = `/v1/fintech/accounts/${ids[a.account]}/${a.what === 'balances' ? 'balances' : 'statement'}`;
      const reply = await send('GET', `${path}${query}`);
      assert.equal(reply.status, 200, `${path}${query}: ${reply.text}`);
      answers.push({ path, what: a.what, ...(named === undefined ? {} : { named }), body: reply.body });
    }
  };
  await Promise.all([...Array.from({ length: LANES }, writer), reader()]);
  for (const { path, what, named, body } of answers) {
    if (named !== undefined) assert.equal(what === 'balances' ? body.at : body.to, named, 'the instant asked for');
    const again = await send('GET', `${path}${askedAgain(what, body)}`);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, body, `${path}${askedAgain(what, body)} answered the same later`);
  }
}

/** One movement; a hold made is remembered for a later post or void (a refusal, such as no funds, is fine). */
async function perform(
  send: (method: string, path: string, json?: unknown) => Promise<Reply>,
  ids: string[],
  holds: string[],
  o: Op,
): Promise<Reply | null> {
  const T = '/v1/fintech/transfers';
  switch (o.kind) {
    case 'deposit':
    case 'withdraw':
      return send(
        'POST',
        `/v1/sandbox/fintech/accounts/${ids[o.at]}/${o.kind === 'deposit' ? 'deposits' : 'withdrawals'}`,
        {
          amount: o.amount,
        },
      );
    case 'transfer':
    case 'hold': {
      const body = {
        from_account_id: ids[o.from],
        to_account_id: ids[(o.from + o.shift) % ACCOUNTS],
        amount: o.amount,
        currency: 'USD',
        ...(o.kind === 'hold' ? { pending: true } : {}),
      };
      const reply = await send('POST', T, body);
      if (o.kind === 'hold' && reply.status === 200) holds.push(reply.body.id);
      return reply;
    }
    case 'post':
    case 'void': {
      const hold = holds.length === 0 ? undefined : holds[o.which % holds.length];
      if (hold === undefined) return null;
      return send('POST', `${T}/${hold}/${o.kind}`, o.kind === 'post' ? {} : undefined);
    }
  }
}
