import { randomInt, randomUUID } from 'node:crypto';
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkAgrees, checkEventsOnce, eventsOf, paymentsOf } from '../helpers/payments-property.ts';
import { call } from '../helpers/server.ts';
import { type Answer, send } from './http.ts';
import type { Store } from './store.ts';

/**
 * The campaign's sandbox clock (docs/api.md#the-sandbox-clock), in an org of its own: each cycle makes ACH payments
 * (one in four of 77, which a rule returns a day after settlement) and pending transfers with expiries, then lanes
 * (one per server) advance the org's clock in steps of hours, racing each other, while the servers are killed, often
 * in the middle of an advance's run of what is due. After the restart: on odd cycles, with no request at all, the
 * clock's background pass finishes the advance that was cut (its target cleared, nothing left due by the clock); each
 * unanswered advance is retried with its key; an advance to the cycle's end finishes the rest. Then, over every cycle
 * so far: nothing is due by the clock's now; every payment ended settled (or returned after settlement by the rule)
 * and agrees with its transfer; each has its creation event once and one `fintech.payment.updated` per status change;
 * each hold expired once (one `fintech.transfer.expired`, no other ending); the balance is what settled.
 * `ledger verify` runs after (test/crash/reversals.ts checks the whole database).
 */

const PAYMENTS_A_CYCLE = 12;
const HOLDS_A_CYCLE = 3;
const START = 100_000_000;
const RETURNED_LATER = 77;
const STEP_HOURS = 6;
/** A cycle's advances end 8 days on: past any cut-off, a weekend, the next settlement, and a day more for returns. */
const CYCLE_HOURS = 8 * 24;
const PATIENCE_MS = 30_000;

export interface ClockFigures {
  advances: number;
  acknowledged: number;
  refused: number;
  unanswered: number;
  /** Kills that cut an advance after it set its target (an advance was under way right after the kill). */
  cutUnderWay: number;
  /** Of those, on odd cycles, the ones the background pass finished with no request. */
  finishedInBackground: number;
  payments: number;
  holds: number;
  checked: number;
}

interface Attempt {
  key: string;
  to: string;
  answer?: Answer;
}

export class ClockAdvances {
  readonly figures: ClockFigures = {
    advances: 0,
    acknowledged: 0,
    refused: 0,
    unanswered: 0,
    cutUnderWay: 0,
    finishedInBackground: 0,
    payments: 0,
    holds: 0,
    checked: 0,
  };
  private key = '';
  private orgId = '';
  private account = '';
  private receiver = '';
  private external = '';
  private readonly payments: string[] = [];
  /** How many of `payments` were made before this cycle (checked in full then). */
  private checkedBefore = 0;
  private readonly holds: string[] = [];
  private base = 0;
  private underWayAtKill = false;
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

  /** The org, an account with money, one to receive holds, an external account, the rule. */
  async setUp(agent: http.Agent, url: string): Promise<void> {
    const signup = await send(agent, url, 'POST', '/v1/sandbox/signup', {}, { name: 'crash clock' });
    ({ org_id: this.orgId } = JSON.parse(signup.text));
    this.key = JSON.parse(signup.text).api_key.key;
    this.account = (await this.ok(agent, url, '/v1/fintech/accounts', { type: 'business', country: 'US' })).id;
    this.receiver = (await this.ok(agent, url, '/v1/fintech/accounts', { type: 'business', country: 'US' })).id;
    await this.ok(agent, url, `/v1/sandbox/fintech/accounts/${this.account}/deposits`, { amount: START });
    this.external = (
      await this.ok(agent, url, '/v1/fintech/external_accounts', {
        routing_number: '021000021',
        account_number: '000123456789',
        account_holder_name: 'Acme Supplies LLC',
        account_type: 'checking',
      })
    ).id;
    await this.ok(agent, url, '/v1/sandbox/fintech/payment_rules', {
      match: { amount: RETURNED_LATER },
      action: { return: 'R01', at: 'P1D' },
    });
  }

  /** The cycle's payments and holds, made before its traffic starts; the clock's now is the cycle's base. */
  async prepare(agent: http.Agent, url: string): Promise<void> {
    const clock = await send(agent, url, 'GET', '/v1/sandbox/clock', { authorization: `Bearer ${this.key}` });
    this.base = Date.parse(JSON.parse(clock.text).now);
    for (let i = 0; i < PAYMENTS_A_CYCLE; i++) {
      const amount = randomInt(4) === 0 ? RETURNED_LATER : randomInt(1, 1000);
      const body = {
        account_id: this.account,
        external_account_id: this.external,
        amount,
        currency: 'USD',
        rail: 'ach',
      };
      this.payments.push((await this.ok(agent, url, '/v1/fintech/payments', body)).id);
      this.figures.payments++;
    }
    for (let i = 0; i < HOLDS_A_CYCLE; i++) {
      const body = {
        from_account_id: this.account,
        to_account_id: this.receiver,
        amount: randomInt(1, 1000),
        currency: 'USD',
        pending: true,
        expires_in_seconds: randomInt(1, 72) * 3600,
      };
      this.holds.push((await this.ok(agent, url, '/v1/fintech/transfers', body)).id);
      this.figures.holds++;
    }
  }

  private at(hours: number): string {
    return new Date(this.base + hours * 3_600_000).toISOString();
  }

  private accept(a: Attempt, answer: Answer): void {
    a.answer = answer;
    if (answer.status === 200) this.figures.acknowledged++;
    else if (answer.status === 400 && JSON.parse(answer.text).code === 'parameter_invalid') this.figures.refused++;
    else this.fail(`advance to ${a.to} answered ${answer.status}: ${answer.text}`);
  }

  /** One lane of advances to server `server` (its steps offset by its number of hours) while `running()`. */
  async lane(agent: http.Agent, url: string, server: number, running: () => boolean, sent: Attempt[]) {
    for (let hours = STEP_HOURS + server * 3; hours < CYCLE_HOURS && running(); hours += STEP_HOURS) {
      const a: Attempt = { key: randomUUID(), to: this.at(hours) };
      sent.push(a);
      this.figures.advances++;
      try {
        this.accept(a, await this.post(agent, url, '/v1/sandbox/clock/advance', { to: a.to }, a.key));
      } catch {
        // unanswered: retried after the restart
      }
    }
  }

  /** What the clock's row and the payments' next steps say: an advance under way, and steps due by the clock now. */
  private async state() {
    const { clock, due } = await this.store.snapshot(this.orgId);
    const now = new Date(Date.now() + (clock?.offsetMs ?? 0)).toISOString();
    return { underWay: clock?.targetMs != null, overdue: due.filter((d) => d.dueAt <= now), now };
  }

  /** Right after the kill: whether it cut an advance under way (its target set, not yet reached). */
  async noteKill(): Promise<void> {
    this.underWayAtKill = (await this.state()).underWay;
    if (this.underWayAtKill) this.figures.cutUnderWay++;
  }

  /**
   * After the restart: on odd cycles the background pass alone finishes what was cut; each unanswered advance is
   * retried with its key (200, or 400 when the clock has passed its `to`); then an advance to the cycle's end.
   */
  async finish(agent: http.Agent, url: () => string, cycle: number, sent: Attempt[]): Promise<void> {
    if (cycle % 2 === 1) {
      const patience = Date.now() + PATIENCE_MS;
      let state = await this.state();
      while ((state.underWay || state.overdue.length > 0) && Date.now() < patience) {
        await sleep(200);
        state = await this.state();
      }
      if (state.underWay || state.overdue.length > 0)
        this.fail(`the background pass left the clock's advance unfinished: ${JSON.stringify(state)}`);
      else if (this.underWayAtKill) this.figures.finishedInBackground++;
    }
    for (const a of sent.filter((a) => a.answer === undefined)) {
      this.figures.unanswered++;
      const patience = Date.now() + PATIENCE_MS;
      let answer = await this.post(agent, url(), '/v1/sandbox/clock/advance', { to: a.to }, a.key);
      while (
        answer.status === 409 &&
        answer.text.includes('idempotency_request_in_progress') &&
        Date.now() < patience
      ) {
        await sleep(50);
        answer = await this.post(agent, url(), '/v1/sandbox/clock/advance', { to: a.to }, a.key);
      }
      this.accept(a, answer);
    }
    const end = await this.post(agent, url(), '/v1/sandbox/clock/advance', { to: this.at(CYCLE_HOURS) }, randomUUID());
    if (end.status !== 200) this.fail(`the advance to the cycle's end answered ${end.status}: ${end.text}`);
  }

  /** Every check, over every cycle's payments and holds. */
  async check(url: string): Promise<void> {
    try {
      const state = await this.state();
      if (state.underWay || state.overdue.length > 0)
        throw new Error(`after the advance to the cycle's end: ${JSON.stringify(state)}`);
      // Every payment so far (one list), each ended; the cycle's own against their transfers too.
      const payments = await paymentsOf(url, this.key);
      const ids = new Set(payments.map((p) => p.id));
      if (payments.length !== this.payments.length || !this.payments.every((id) => ids.has(id)))
        throw new Error(`${payments.length} payments listed, ${this.payments.length} made`);
      const fresh = new Set(this.payments.slice(this.checkedBefore));
      for (const p of payments) {
        const ended = p.status === 'settled' || (p.status === 'returned' && p.amount === RETURNED_LATER);
        if (!ended) throw new Error(`payment ${p.id} of ${p.amount} is ${p.status} after its cycle`);
        if (fresh.has(p.id)) await checkAgrees(url, this.key, p);
      }
      this.checkedBefore = this.payments.length;
      await checkEventsOnce(url, this.key, payments);
      const endings = new Map<string, string[]>();
      for (const type of ['fintech.transfer.posted', 'fintech.transfer.voided', 'fintech.transfer.expired'])
        for (const e of await eventsOf(url, this.key, type))
          endings.set(e.data.object.id, [...(endings.get(e.data.object.id) ?? []), type]);
      for (const id of this.holds) {
        const seen = endings.get(id) ?? [];
        if (seen.join() !== 'fintech.transfer.expired') throw new Error(`hold ${id} ended as ${seen}`);
      }
      const paid = payments.reduce((sum, p) => sum + (p.status === 'settled' ? p.amount : 0), 0);
      const account = (await call(url, 'GET', `/v1/fintech/accounts/${this.account}`, { key: this.key })).body;
      const balances = [account.current_balance.amount, account.available_balance.amount];
      if (balances.join() !== `${START - paid},${START - paid}`)
        throw new Error(`balances ${balances}, want ${START - paid} (nothing held)`);
      this.figures.checked++;
    } catch (error) {
      this.fail(`clock: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
