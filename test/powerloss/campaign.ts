import { randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { WAL_LIMIT_FRAMES } from '../../src/db/sqlite/sqlite-checkpointer.ts';
import { type Answer, send } from '../crash/http.ts';
import { type ServerProcess, startServer, stopAtOnce } from '../crash/server.ts';
import { run } from '../helpers/process.ts';
import type { PowerCutMount } from './fs.ts';

/** Where a cycle cuts the power (test/powerloss/main.ts). */
export const MOMENTS = ['random', 'wal-sync', 'checkpoint', 'past-threshold'] as const;
export type Moment = (typeof MOMENTS)[number];

export interface Options {
  cycles: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** The control: the server's WAL sync is a no-op (PLINTH_TEST_UNSAFE_NO_WAL_SYNC). */
  unsafe: boolean;
  /** The control ends early once it lost writes in this many cycles: the point is proven. */
  stopAfterLossyCycles?: number;
  progress?: (figures: Figures) => void;
}

export interface Figures {
  cycles: number;
  /** Cycles cut at each moment (a trigger that did not fire in time falls back to `random`). */
  moments: Record<Moment, number>;
  sent: number;
  acknowledged: number;
  /** Requests the cut left unanswered; each retried with its key after the restart. */
  unanswered: number;
  /** Of those, the ones whose retry was a replay: committed and synced, the answer lost with the power. */
  replayed: number;
  /** Acknowledged writes missing after the restart (their replay ran them anew, or their object is gone or changed). */
  lost: number;
  /** Cycles with at least one lost write. */
  cyclesWithLosses: number;
  /** Bytes unsynced at the cut (lazyfs.py's count), summed. */
  unsyncedAtCut: number;
  integrityChecks: number;
  verified: number;
  failures: string[];
}

type Kind = 'create' | 'deposit' | 'transfer';
interface Attempt {
  kind: Kind;
  key: string;
  path: string;
  body: Record<string, unknown>;
  /** The first answer: the acknowledgement, or the retry's. */
  answer?: Answer;
  /** Answered before the cut. */
  acknowledged?: boolean;
}

const ACCOUNTS = 6;
const OPENING = 1_000_000_000;
const WAL_FRAME = 4096 + 24;
const TRIGGER_PATIENCE_MS = 15_000;

export class Campaign {
  readonly figures: Figures;
  private readonly mount: PowerCutMount;
  private readonly options: Options;
  private readonly env: Record<string, string>;
  private readonly url: string;
  private server?: ServerProcess;
  private apiKey = '';
  private accounts: string[] = [];
  /** Every attempt answered 200, over the campaign. */
  private readonly done: Attempt[] = [];
  private readonly lostKeys = new Set<string>();

  constructor(mount: PowerCutMount, options: Options) {
    this.mount = mount;
    this.options = options;
    this.url = `sqlite:${join(mount.mountpoint, 'plinth.db')}`;
    // No SECRETS_KEY: the server generates its key file on the lazy file system, and must find it after each cut.
    const unsafe = { PLINTH_TEST_UNSAFE_NO_WAL_SYNC: '1', PLINTH_TEST_ONLY_SETTINGS: '1' };
    this.env = { SECRETS_KEY: '', SECRETS_KEY_PREVIOUS: '', ...(options.unsafe ? unsafe : {}) };
    this.figures = {
      cycles: 0,
      moments: { random: 0, 'wal-sync': 0, checkpoint: 0, 'past-threshold': 0 },
      sent: 0,
      acknowledged: 0,
      unanswered: 0,
      replayed: 0,
      lost: 0,
      cyclesWithLosses: 0,
      unsyncedAtCut: 0,
      integrityChecks: 0,
      verified: 0,
      failures: [],
    };
  }

  private fail(message: string): void {
    this.figures.failures.push(`cycle ${this.figures.cycles}: ${message}`);
  }

  private post(agent: http.Agent, a: Attempt): Promise<Answer> {
    const headers = { authorization: `Bearer ${this.apiKey}`, 'idempotency-key': a.key };
    return send(agent, this.server!.url, 'POST', a.path, headers, a.body);
  }

  private async get(agent: http.Agent, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await send(agent, this.server!.url, 'GET', path, { authorization: `Bearer ${this.apiKey}` });
    return { status: answer.status, body: JSON.parse(answer.text) };
  }

  /** The whole campaign; the mount is unmounted at the end whatever happened. */
  async run(): Promise<Figures> {
    try {
      await this.mount.mount();
      this.server = await startServer(this.url, this.env);
      await this.setUp();
      for (let i = 0; i < this.options.cycles; i++) {
        await this.cycle(this.mount.triggers ? MOMENTS[i % MOMENTS.length]! : 'random');
        this.options.progress?.(this.figures);
        if (this.figures.cyclesWithLosses >= (this.options.stopAfterLossyCycles ?? Number.POSITIVE_INFINITY)) break;
      }
      // A clean stop, then the power cut that unmounting is: what SIGTERM left must all be there.
      process.kill(this.server.pid, 'SIGTERM');
      const end = await this.server.exited;
      if (end.code !== 0) this.fail(`the server, sent SIGTERM, ended with ${JSON.stringify(end)}`);
      await this.mount.unmount();
      await this.mount.mount();
      this.server = await startServer(this.url, this.env);
      await this.check(this.done, 'at the end');
      process.kill(this.server.pid, 'SIGTERM');
      await this.server.exited;
      await this.mount.unmount();
    } catch (error) {
      this.fail(`stopped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (this.server !== undefined) stopAtOnce(this.server);
      await sleep(500);
      this.mount.forceUnmount();
    }
    this.figures.lost = this.lostKeys.size;
    return this.figures;
  }

  /** The org, and the accounts that deposits and transfers use, each with its opening deposit. */
  private async setUp(): Promise<void> {
    const agent = new http.Agent();
    const signup = await send(agent, this.server!.url, 'POST', '/v1/sandbox/signup', {}, { name: 'power loss' });
    if (signup.status !== 200) throw new Error(`sign-up answered ${signup.status}: ${signup.text}`);
    this.apiKey = JSON.parse(signup.text).api_key.key;
    for (let i = 0; i < ACCOUNTS; i++) {
      const create = this.attempt('create');
      const account = JSON.parse((await this.answered(agent, create)).text);
      this.accounts.push(account.id);
      const path = `/v1/sandbox/fintech/accounts/${account.id}/deposits`;
      await this.answered(agent, { kind: 'deposit', key: randomUUID(), path, body: { amount: OPENING } });
    }
    agent.destroy();
  }

  private async answered(agent: http.Agent, a: Attempt): Promise<Answer> {
    const answer = await this.post(agent, a);
    if (answer.status !== 200) throw new Error(`${a.path} answered ${answer.status}: ${answer.text}`);
    a.answer = answer;
    a.acknowledged = true;
    this.done.push(a);
    return answer;
  }

  private attempt(kind: Kind): Attempt {
    const key = randomUUID();
    const pick = () => this.accounts[randomInt(this.accounts.length)]!;
    if (kind === 'create' || this.accounts.length < 2) {
      const body = { type: 'business', country: 'US', nickname: `power ${key.slice(0, 8)}` };
      return { kind: 'create', key, path: '/v1/fintech/accounts', body };
    }
    if (kind === 'deposit') {
      const body = { amount: randomInt(1, 1000) };
      return { kind, key, path: `/v1/sandbox/fintech/accounts/${pick()}/deposits`, body };
    }
    const from = pick();
    const others = this.accounts.filter((id) => id !== from);
    const body = { from_account_id: from, to_account_id: others[randomInt(others.length)], amount: randomInt(1, 100) };
    return { kind, key, path: '/v1/fintech/transfers', body: { ...body, currency: 'USD' } };
  }

  /** Concurrent creates, deposits and transfers, each with its own key, until `stop()`. */
  private traffic() {
    const attempts: Attempt[] = [];
    let stopped = false;
    const agent = new http.Agent({ keepAlive: true, maxSockets: this.options.concurrency });
    const kinds: Kind[] = ['create', 'deposit', 'deposit', 'transfer', 'transfer'];
    const lane = async () => {
      while (!stopped) {
        const a = this.attempt(kinds[randomInt(kinds.length)]!);
        attempts.push(a);
        try {
          const answer = await this.post(agent, a);
          if (answer.status !== 200) this.fail(`${a.path} answered ${answer.status} before the cut: ${answer.text}`);
          // Every 200 counts, even one read after the cut: the server sent it before it was frozen.
          else [a.answer, a.acknowledged] = [answer, true];
        } catch {
          // unanswered: retried after the restart
        }
      }
    };
    const lanes = Promise.all(Array.from({ length: this.options.concurrency }, lane));
    return {
      attempts,
      stop: () => {
        stopped = true;
      },
      finished: async () => {
        await lanes;
        agent.destroy();
      },
    };
  }

  /** Waits until lazyfs.py's control file says `name` is `value`, or the patience ran out. */
  private async until(test: (status: Map<string, string>) => boolean, patienceMs: number): Promise<boolean> {
    const end = Date.now() + patienceMs;
    while (Date.now() < end) {
      if (test(this.mount.status())) return true;
      await sleep(20);
    }
    return false;
  }

  /**
   * The power cut at `moment`: at a random time; just before the nth WAL sync; at the nth write to the database file
   * (only checkpoints write it); or at such a write once the WAL has passed WAL_LIMIT_FRAMES. lazyfs.py stops the
   * server (SIGSTOP) and drops every unsynced byte at that instant; on `random`, the campaign does both itself.
   * Returns the moment it was, in the end.
   */
  private async cut(moment: Moment): Promise<Moment> {
    const pid = this.server!.pid;
    const fired = (s: Map<string, string>) => s.get('trigger') === 'fired';
    let armed: string | undefined;
    if (moment === 'wal-sync') armed = `cut-on fsync plinth.db-wal ${pid} ${randomInt(1, 60)}`;
    if (moment === 'checkpoint') armed = `cut-on write plinth.db ${pid} ${randomInt(1, 40)}`;
    if (moment === 'past-threshold') {
      // The WAL's current generation (written since its header was) reaches past the limit: the writer is held.
      const past = (s: Map<string, string>) => Number(s.get('reach plinth.db-wal') ?? 0) > WAL_LIMIT_FRAMES * WAL_FRAME;
      if (await this.until(past, TRIGGER_PATIENCE_MS * 2)) armed = `cut-on write plinth.db ${pid} ${randomInt(1, 10)}`;
    }
    if (armed !== undefined) {
      this.mount.control(armed);
      if (await this.until(fired, TRIGGER_PATIENCE_MS)) {
        process.kill(-pid, 'SIGSTOP'); // the rest of its group (the delivery processes) too
        this.figures.unsyncedAtCut += Number(this.mount.status().get('dropped_bytes'));
        return moment;
      }
    } else {
      await sleep(randomInt(50, 1500));
    }
    process.kill(-pid, 'SIGSTOP');
    this.mount.control('cut');
    this.figures.unsyncedAtCut += Number(this.mount.status().get('dropped_bytes'));
    return 'random';
  }

  /** Traffic, the cut, SIGKILL, unmount and mount again, restart, then every check. */
  private async cycle(wanted: Moment): Promise<void> {
    const figures = this.figures;
    figures.cycles++;
    const load = this.traffic();
    const moment = await this.cut(wanted);
    figures.moments[moment]++;
    load.stop();
    process.kill(-this.server!.pid, 'SIGKILL');
    await this.server!.exited;
    await load.finished();
    await this.mount.unmount();
    await this.mount.mount();
    this.server = await startServer(this.url, this.env);

    const acknowledged = load.attempts.filter((a) => a.acknowledged);
    const unanswered = load.attempts.filter((a) => !a.acknowledged);
    figures.sent += load.attempts.length;
    figures.acknowledged += acknowledged.length;
    figures.unanswered += unanswered.length;
    const lostBefore = this.lostKeys.size;
    const agent = new http.Agent({ keepAlive: true, maxSockets: this.options.concurrency });
    // The acknowledged first: a lost one, replayed, runs anew; then the unanswered, which may run now.
    await eachLimited(acknowledged, this.options.concurrency, (a) => this.replay(agent, a));
    await eachLimited(unanswered, this.options.concurrency, async (a) => {
      const answer = await this.post(agent, a);
      if (answer.status !== 200) return this.fail(`retry of ${a.key} answered ${answer.status}: ${answer.text}`);
      a.answer = answer;
      if (answer.replayed) figures.replayed++;
    });
    agent.destroy();
    this.done.push(...load.attempts.filter((a) => a.answer !== undefined));
    await this.check(acknowledged, `after a cut (${moment})`);
    if (this.lostKeys.size > lostBefore) figures.cyclesWithLosses++;
    figures.lost = this.lostKeys.size;
  }

  /** An acknowledged write sent again with its key: the original answer, byte for byte, replayed; else it was lost. */
  private async replay(agent: http.Agent, a: Attempt): Promise<void> {
    const again = await this.post(agent, a);
    if (again.status === 200 && again.replayed && again.text === a.answer!.text) return;
    this.lostKeys.add(a.key);
    if (this.lostKeys.size <= 5 || !this.options.unsafe)
      this.fail(`acknowledged ${a.kind} ${a.key} lost: its replay answered ${again.status} replayed=${again.replayed}`);
  }

  /**
   * Every write in `writes` reads back as acknowledged (transfers and transactions never change; an account but for
   * its balances); each account's balance is its deposits and transfers; `PRAGMA integrity_check` is ok; `ledger
   * verify` exits 0.
   */
  private async check(writes: Attempt[], when: string): Promise<void> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: this.options.concurrency });
    await eachLimited(writes, this.options.concurrency, async (a) => {
      const sent = JSON.parse(a.answer!.text);
      const path = {
        create: '/v1/fintech/accounts',
        deposit: '/v1/fintech/transactions',
        transfer: '/v1/fintech/transfers',
      };
      const read = await this.get(agent, `${path[a.kind]}/${sent.id}`);
      const stable = (o: Record<string, unknown>) =>
        a.kind === 'create' ? { ...o, current_balance: 0, available_balance: 0 } : o;
      if (read.status === 200 && isDeepStrictEqual(stable(read.body), stable(sent))) return;
      this.lostKeys.add(a.key);
      if (this.lostKeys.size <= 5 || !this.options.unsafe)
        this.fail(`${when}: ${a.kind} ${sent.id} (key ${a.key}) reads ${read.status} ${JSON.stringify(read.body)}`);
    });
    const expected = new Map(this.accounts.map((id) => [id, 0]));
    for (const a of this.done) {
      const body = JSON.parse(a.answer!.text);
      if (a.kind === 'deposit') expected.set(body.account_id, expected.get(body.account_id)! + body.amount);
      if (a.kind === 'transfer') {
        expected.set(body.from_account_id, expected.get(body.from_account_id)! - body.amount);
        expected.set(body.to_account_id, expected.get(body.to_account_id)! + body.amount);
      }
    }
    for (const [id, amount] of expected) {
      const account = await this.get(agent, `/v1/fintech/accounts/${id}`);
      const balance = (account.body.current_balance as { amount: number } | undefined)?.amount;
      if (balance !== amount) this.fail(`${when}: account ${id} holds ${balance}, its writes add up to ${amount}`);
    }
    agent.destroy();
    const db = new DatabaseSync(this.url.slice('sqlite:'.length), { readOnly: true });
    try {
      const rows = db.prepare('PRAGMA integrity_check').all();
      const result = rows.map((row) => String(Object.values(row)[0])).join('; ');
      this.figures.integrityChecks++;
      if (result !== 'ok') this.fail(`${when}: PRAGMA integrity_check: ${result}`);
    } finally {
      db.close();
    }
    const verify = await run(['src/cli/main.ts', 'ledger', 'verify'], { DATABASE_URL: this.url, SECRETS_KEY: '' });
    if (verify.code === 0) this.figures.verified++;
    else this.fail(`${when}: ledger verify exited ${verify.code}: ${verify.stdout} ${verify.stderr}`);
  }
}

/** Runs `work` on every item, `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: limit }, lane));
}
