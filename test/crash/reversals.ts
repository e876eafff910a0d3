import { randomInt, randomUUID } from 'node:crypto';
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { TEST_SECRETS_KEY } from '../helpers/database.ts';
import { run } from '../helpers/process.ts';
import { type Answer, send } from './http.ts';
import type { Store } from './store.ts';

/**
 * The campaign's reversals (docs/api.md#correcting-a-transfer), in an org of their own so that the accounts' checks
 * stay whole: each cycle makes a few posted transfers from a sender to a receiver, then lanes reverse random parts of
 * them (all that remains, now and then), each with its own Idempotency-Key, racing each other on the few transfers
 * while the servers are killed. Unanswered ones are retried with their keys after the restart. Then every reversal
 * answered 200 exists exactly once, as answered; each transfer's `amount_reversed` is the sum of its reversals and
 * at most what it posted; the two balances are what the transfers and reversals add up to; every key answered 200 or
 * 409 has exactly its answer stored, and no other key anything; `ledger verify` exits 0.
 */

const TRANSFERS_A_CYCLE = 4;
const START = 1_000_000;
const PATIENCE_MS = 30_000;
/** What a reversal may be answered here, besides 200: nothing left to reverse, or more asked than remains. */
const REFUSED = new Set(['transfer_not_reversible', 'parameter_invalid']);

interface Attempt {
  key: string;
  transfer: string;
  body: { amount?: number };
  server: number;
  answer?: Answer;
}

export interface ReversalFigures {
  sent: number;
  acknowledged: number;
  refused: number;
  unanswered: number;
  replayed: number;
  lost: number;
  duplicated: number;
  verified: number;
}

export class Reversals {
  readonly figures: ReversalFigures = {
    sent: 0,
    acknowledged: 0,
    refused: 0,
    unanswered: 0,
    replayed: 0,
    lost: 0,
    duplicated: 0,
    verified: 0,
  };
  private key = '';
  private orgId = '';
  private sides: string[] = [];
  private posted = 0;
  private cycle: { id: string; amount: number }[] = [];
  /** Every attempt answered (200, or a refusal), over the campaign. */
  private readonly answered: Attempt[] = [];

  private readonly store: Store;
  private readonly fail: (message: string) => void;

  constructor(store: Store, fail: (message: string) => void) {
    this.store = store;
    this.fail = fail;
  }

  private post(agent: http.Agent, url: string, path: string, json: unknown, key?: string) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (key !== undefined) headers['idempotency-key'] = key;
    return send(agent, url, 'POST', path, headers, json);
  }

  private async ok(agent: http.Agent, url: string, path: string, json: unknown) {
    const answer = await this.post(agent, url, path, json);
    if (answer.status !== 200) throw new Error(`POST ${path} answered ${answer.status}: ${answer.text}`);
    return JSON.parse(answer.text);
  }

  /** The org, its two accounts, and a deposit on each. */
  async setUp(agent: http.Agent, url: string): Promise<void> {
    const signup = await send(agent, url, 'POST', '/v1/sandbox/signup', {}, { name: 'crash reversals' });
    ({ org_id: this.orgId } = JSON.parse(signup.text));
    this.key = JSON.parse(signup.text).api_key.key;
    for (let i = 0; i < 2; i++) {
      const account = await this.ok(agent, url, '/v1/fintech/accounts', { type: 'business', country: 'US' });
      await this.ok(agent, url, `/v1/sandbox/fintech/accounts/${account.id}/deposits`, { amount: START });
      this.sides.push(account.id);
    }
  }

  /** The cycle's transfers to reverse, posted before its traffic starts. */
  async prepare(agent: http.Agent, url: string): Promise<void> {
    this.cycle = [];
    for (let i = 0; i < TRANSFERS_A_CYCLE; i++) {
      const amount = randomInt(50, 500);
      const body = { from_account_id: this.sides[0], to_account_id: this.sides[1], amount, currency: 'USD' };
      this.cycle.push({ id: (await this.ok(agent, url, '/v1/fintech/transfers', body)).id, amount });
      this.posted += amount;
    }
  }

  private attempt(server: number): Attempt {
    const transfer = this.cycle[randomInt(this.cycle.length)]!;
    const amount = randomInt(5) === 0 ? undefined : randomInt(1, Math.ceil(transfer.amount / 3));
    return { key: randomUUID(), transfer: transfer.id, body: amount === undefined ? {} : { amount }, server };
  }

  private reverse(agent: http.Agent, url: string, a: Attempt): Promise<Answer> {
    return this.post(agent, url, `/v1/fintech/transfers/${a.transfer}/reversals`, a.body, a.key);
  }

  private accept(a: Attempt, answer: Answer): void {
    const code = answer.status === 200 ? '' : (JSON.parse(answer.text).code as string);
    if (answer.status !== 200 && !REFUSED.has(code)) this.fail(`reversal ${a.key} answered ${answer.text}`);
    a.answer = answer;
    this.answered.push(a);
    if (answer.status === 200) this.figures.acknowledged++;
    else this.figures.refused++;
  }

  /** One lane of reversals to server `server` while `running()`; returns what it sent. */
  async lane(agent: http.Agent, url: string, server: number, running: () => boolean, sent: Attempt[]) {
    while (running()) {
      const a = this.attempt(server);
      sent.push(a);
      this.figures.sent++;
      try {
        this.accept(a, await this.reverse(agent, url, a));
      } catch {
        // unanswered: retried after the restart
      }
    }
  }

  /** Each unanswered attempt, retried with its key until it is answered; an answer stored is then replayed exactly. */
  async retry(agent: http.Agent, url: () => string, sent: Attempt[]): Promise<void> {
    for (const a of sent.filter((a) => a.answer === undefined)) {
      this.figures.unanswered++;
      const patience = Date.now() + PATIENCE_MS;
      let first = await this.reverse(agent, url(), a);
      while (first.status === 409 && first.text.includes('idempotency_request_in_progress') && Date.now() < patience) {
        await sleep(50);
        first = await this.reverse(agent, url(), a);
      }
      this.accept(a, first);
      if (first.replayed) this.figures.replayed++;
      if (first.status === 400) continue; // refused before it ran: nothing stored
      const second = await this.reverse(agent, url(), a);
      if (!second.replayed || second.text !== first.text)
        this.fail(`second retry of reversal ${a.key}: ${second.status} replayed=${second.replayed} ${second.text}`);
    }
  }

  /** Every check, through the API and behind the server's back. */
  async check(agent: http.Agent, url: string): Promise<void> {
    const auth = { authorization: `Bearer ${this.key}` };
    const read = async (path: string) => JSON.parse((await send(agent, url, 'GET', path, auth)).text);
    const acknowledged = this.answered.filter((a) => a.answer!.status === 200).map((a) => JSON.parse(a.answer!.text));
    for (const t of this.cycle) {
      const transfer = await read(`/v1/fintech/transfers/${t.id}`);
      const listed: { id: string; amount: number }[] = [];
      for (let page = { has_more: true, data: [{ id: '' }] }; page.has_more; ) {
        const after = listed.length === 0 ? '' : `&starting_after=${listed.at(-1)!.id}`;
        page = await read(`/v1/fintech/transfers/${t.id}/reversals?limit=100${after}`);
        listed.push(...(page.data as { id: string; amount: number }[]));
      }
      const mine = acknowledged.filter((r) => r.transfer_id === t.id);
      const sum = listed.reduce((total, r) => total + r.amount, 0);
      const same = (x: { id: string; amount: number }[]) =>
        x
          .map((r) => `${r.id} ${r.amount}`)
          .sort()
          .join();
      if (same(listed) !== same(mine)) {
        this.figures.lost += mine.filter((r) => !listed.some((l) => l.id === r.id)).length;
        this.figures.duplicated += listed.filter((l) => !mine.some((r) => r.id === l.id)).length;
        this.fail(`transfer ${t.id} lists reversals ${same(listed)}, acknowledged ${same(mine)}`);
      }
      if (transfer.amount_reversed !== sum || sum > transfer.posted_amount)
        this.fail(
          `transfer ${t.id}: amount_reversed ${transfer.amount_reversed}, reversals ${sum}, posted ${t.amount}`,
        );
    }
    const reversed = acknowledged.reduce((total, r) => total + r.amount, 0);
    const balances = await Promise.all(this.sides.map((id) => read(`/v1/fintech/accounts/${id}`)));
    const want = [START - this.posted + reversed, START + this.posted - reversed];
    const have = balances.map((b) => b.current_balance.amount);
    if (have.join() !== want.join()) this.fail(`balances ${have}, want ${want}`);
    await this.inspect(acknowledged.length);
  }

  private async inspect(acknowledged: number): Promise<void> {
    const { stored, reversals } = await this.store.snapshot(this.orgId);
    if (reversals !== acknowledged) this.fail(`${reversals} reversals stored for ${acknowledged} acknowledged`);
    const kept = this.answered.filter((a) => a.answer!.status !== 400);
    for (const a of kept)
      if (stored.get(a.key)?.length !== 1 || stored.get(a.key)![0] !== a.answer!.text)
        this.fail(`reversal key ${a.key} has ${JSON.stringify(stored.get(a.key))} stored, not its answer alone`);
    if (stored.size !== kept.length) this.fail(`${stored.size} stored responses for ${kept.length} reversal keys`);
    const env = { DATABASE_URL: this.store.url, SECRETS_KEY: process.env.SECRETS_KEY ?? TEST_SECRETS_KEY };
    const verify = await run(['src/cli/main.ts', 'ledger', 'verify'], env);
    if (verify.code === 0) this.figures.verified++;
    else this.fail(`ledger verify exited ${verify.code}: ${verify.stdout} ${verify.stderr}`);
  }
}
