import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type BankFigures, BankFiles } from './bank.ts';
import { ClockAdvances, type ClockFigures } from './clock.ts';
import { checkEvents } from './events.ts';
import { type Answer, send } from './http.ts';
import { type ReversalFigures, Reversals } from './reversals.ts';
import { killServer, type ServerProcess, startServer, stopAtOnce } from './server.ts';
import { type Backend, openStore, type Store } from './store.ts';
import { Deliveries, type DeliveryFigures } from './webhooks.ts';

export interface Options {
  cycles: number;
  /** Requests in flight at once, during the traffic and the retries. */
  concurrency: number;
  /** The kill comes at a random moment this many milliseconds after the traffic starts. */
  killAfterMs: [number, number];
  /**
   * Server processes on the one database (PostgreSQL only; SQLite runs one). With two, the cycles take turns: kill
   * the first while the second keeps serving, kill the second while the first does, kill both.
   */
  processes: number;
  /** Called after each cycle's checks, with the tally so far. */
  progress?: (figures: Figures) => void;
}

export interface Figures {
  backend: Backend;
  cycles: number;
  sent: number;
  acknowledged: number;
  /** Requests the killed server never answered; each was retried with its key after the restart. */
  unanswered: number;
  /** Of those, the ones whose first retry was a replay: committed before the kill, the answer lost with the process. */
  replayed: number;
  /** 409 `idempotency_request_in_progress` met on a retry (PostgreSQL: the dead server's transaction not yet gone). */
  inProgress: number;
  lost: number;
  duplicated: number;
  integrityChecks: number;
  /** The check `integrityChecks` counts. */
  integrityName: string;
  /** Events listed (numbered) at the last look, and the faults found in them over the campaign. */
  events: number;
  eventsMissing: number;
  eventsExtra: number;
  numberingFaults: number;
  /** Requests a server that was not killed left unanswered. */
  survivorsUnanswered: number;
  /**
   * Events committed but not yet numbered right after the kills, added over the cycles: on PostgreSQL, the work the
   * killed sequencers left for the survivor or the restarted server (SQLite numbers in the write: always 0).
   */
  unnumberedAtKill: number;
  /** The reversals' own tally (test/crash/reversals.ts). */
  reversals: ReversalFigures;
  /** Webhook deliveries' tally (test/crash/webhooks.ts). */
  deliveries: DeliveryFigures;
  /** The sandbox clock's advances, killed and finished (test/crash/clock.ts). */
  clock: ClockFigures;
  /** The bank file commands, killed and run again (test/crash/bank.ts). */
  bank: BankFigures;
  failures: string[];
}

const PATH = '/v1/fintech/accounts';
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'NL', 'IE'];
const IN_PROGRESS_PATIENCE_MS = 30_000;

interface Attempt {
  key: string;
  body: { type: string; country: string; kyb?: { legal_name: string; ein: string } };
  /** The text of the first 200 for this key: the acknowledgement, or the retry's answer. */
  answered?: string;
}

function newAttempt(): Attempt {
  const key = randomUUID();
  const body: Attempt['body'] = { type: 'business', country: COUNTRIES[randomInt(COUNTRIES.length)]! };
  if (randomInt(2) === 0) body.kyb = { legal_name: `Crash ${key.slice(0, 8)}`, ein: '12-3456789' };
  return { key, body };
}

/** Everything one backend's campaign shares: the store, the key, what was answered for which key, and the tally. */
class Campaign {
  readonly agentOptions: http.AgentOptions;
  readonly store: Store;
  readonly figures: Figures;
  readonly options: Options;
  apiKey = '';
  orgId = '';
  /** Events of the org before the first create (the sign-up's key). */
  eventsBefore = 0;
  /** Every key whose request was answered with a 200 (first time or on retry). */
  readonly answered: Attempt[] = [];
  readonly lostKeys = new Set<string>();
  readonly duplicatedIds = new Set<string>();
  /** Every event's number when last listed: a number never changes. */
  readonly numbers = new Map<string, number>();
  /** Reversals racing each other in an org of their own, killed and retried alike. */
  readonly reversals: Reversals;
  /** Sandbox clock advances running due payments and expiries, in an org of their own, killed mid-run. */
  readonly clock: ClockAdvances;
  /** `bank import` and `bank ach-export` killed mid-run, in a live org of their own. */
  readonly bank: BankFiles;
  /** The org's webhook endpoint and its receiver; the delivery processes killed alone. */
  readonly deliveries = new Deliveries();

  constructor(backend: Backend, store: Store, options: Options) {
    this.store = store;
    this.options = options;
    this.reversals = new Reversals(store, (message) => this.fail(message));
    this.clock = new ClockAdvances(store, (message) => this.fail(message));
    this.bank = new BankFiles(store, (message) => this.fail(message));
    this.agentOptions = { keepAlive: true, maxSockets: options.concurrency };
    this.figures = {
      backend,
      cycles: 0,
      sent: 0,
      acknowledged: 0,
      unanswered: 0,
      replayed: 0,
      inProgress: 0,
      lost: 0,
      duplicated: 0,
      integrityChecks: 0,
      integrityName: store.integrityName,
      events: 0,
      eventsMissing: 0,
      eventsExtra: 0,
      numberingFaults: 0,
      survivorsUnanswered: 0,
      unnumberedAtKill: 0,
      reversals: this.reversals.figures,
      deliveries: this.deliveries.figures,
      clock: this.clock.figures,
      bank: this.bank.figures,
      failures: [],
    };
  }

  fail(message: string): void {
    this.figures.failures.push(`cycle ${this.figures.cycles}: ${message}`);
  }

  create(agent: http.Agent, url: string, attempt: Attempt): Promise<Answer> {
    const headers = { authorization: `Bearer ${this.apiKey}`, 'idempotency-key': attempt.key };
    return send(agent, url, 'POST', PATH, headers, attempt.body);
  }
}

/**
 * Concurrent creates, each with its own key, spread over the servers (lane i sends to server i mod n), until
 * `stop()`; `stop([i])` stops the lanes of server i alone. What each got is written on its attempt.
 */
function traffic(campaign: Campaign, agents: http.Agent[], urls: string[]) {
  const attempts: (Attempt & { server: number })[] = [];
  const stopped = urls.map(() => false);
  const lane = async (server: number) => {
    while (!stopped[server]) {
      const attempt = { ...newAttempt(), server };
      attempts.push(attempt);
      try {
        const answer = await campaign.create(agents[server]!, urls[server]!, attempt);
        if (answer.status === 200) attempt.answered = answer.text;
        else campaign.fail(`a create was answered ${answer.status} before the kill: ${answer.text}`);
      } catch {
        // unanswered: retried after the restart
      }
    }
  };
  const lanes = Array.from({ length: campaign.options.concurrency }, (_, i) => lane(i % urls.length));
  // A quarter as many lanes again reverse the cycle's transfers, on every server alike.
  const reversals: Parameters<Reversals['retry']>[2] = [];
  const reversing = Array.from({ length: Math.ceil(campaign.options.concurrency / 4) }, (_, i) => {
    const server = i % urls.length;
    return campaign.reversals.lane(agents[server]!, urls[server]!, server, () => !stopped[server], reversals);
  });
  // And one lane a server advances the sandbox clock of the clock's org, racing the other's.
  const advances: Parameters<ClockAdvances['finish']>[3] = [];
  const advancing = urls.map((_, server) =>
    campaign.clock.lane(agents[server]!, urls[server]!, server, () => !stopped[server], advances),
  );
  const done = Promise.all([...lanes, ...reversing, ...advancing]);
  return {
    attempts,
    reversals,
    advances,
    /** No request starts on those servers (all, by default) after this call; resolves once every lane ended. */
    stop(servers: number[] = urls.map((_, i) => i)) {
      for (const i of servers) stopped[i] = true;
      return done;
    },
  };
}

/** One attempt's retries on the restarted server: the first yields the account, the second replays it exactly. */
async function retry(campaign: Campaign, agent: http.Agent, url: string, attempt: Attempt): Promise<void> {
  const patience = Date.now() + IN_PROGRESS_PATIENCE_MS;
  let first = await campaign.create(agent, url, attempt);
  while (first.status === 409 && first.text.includes('idempotency_request_in_progress') && Date.now() < patience) {
    campaign.figures.inProgress++;
    await sleep(50);
    first = await campaign.create(agent, url, attempt);
  }
  if (first.status !== 200) {
    campaign.lostKeys.add(attempt.key);
    return campaign.fail(`retry of ${attempt.key} answered ${first.status}: ${first.text}`);
  }
  attempt.answered = first.text;
  if (first.replayed) campaign.figures.replayed++;
  const second = await campaign.create(agent, url, attempt);
  if (second.status !== 200 || !second.replayed || second.text !== first.text) {
    const id = second.status === 200 ? JSON.parse(second.text).id : null;
    if (id !== null && id !== JSON.parse(first.text).id) campaign.duplicatedIds.add(id);
    campaign.fail(`second retry of ${attempt.key}: ${second.status} replayed=${second.replayed} ${second.text}`);
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

/** Each acknowledged account of the cycle, read back from the restarted server: present and as acknowledged. */
async function readBack(campaign: Campaign, agent: http.Agent, url: () => string, acked: Attempt[]): Promise<void> {
  await eachLimited(acked, campaign.options.concurrency, async (attempt) => {
    const sent = JSON.parse(attempt.answered!);
    const read = await send(agent, url(), 'GET', `${PATH}/${sent.id}`, { authorization: `Bearer ${campaign.apiKey}` });
    try {
      assert.equal(read.status, 200);
      assert.deepEqual(JSON.parse(read.text), sent);
    } catch {
      campaign.lostKeys.add(attempt.key);
      campaign.fail(`acknowledged ${sent.id} read back as ${read.status}: ${read.text}`);
    }
  });
}

/**
 * Behind the server's back: every answered key has its account, equal to the answer, and exactly one stored
 * response, equal to the answer byte for byte; the org has no other account; the integrity check is ok.
 */
async function inspect(campaign: Campaign): Promise<void> {
  const { accounts, stored, events } = await campaign.store.snapshot(campaign.orgId);
  // Every answered write's event has been listed by now (checkNumbered), so none may be left without a number.
  if (events.unnumbered > 0) campaign.fail(`${events.unnumbered} events still have no number`);
  if (events.duplicateNumbers.length > 0) campaign.fail(`numbers held twice: ${events.duplicateNumbers.slice(0, 5)}`);
  if (events.total !== campaign.eventsBefore + accounts.size)
    campaign.fail(`${events.total} events for ${accounts.size} accounts and ${campaign.eventsBefore} before them`);
  const ids = new Set<string>();
  for (const attempt of campaign.answered) {
    const sent = JSON.parse(attempt.answered!);
    ids.add(sent.id);
    const row = accounts.get(sent.id);
    const legalName = attempt.body.kyb?.legal_name ?? null;
    if (row?.country !== attempt.body.country || row.type !== 'business' || row.legalName !== legalName) {
      campaign.lostKeys.add(attempt.key);
      campaign.fail(`account ${sent.id} (key ${attempt.key}) is ${JSON.stringify(row)} in the database`);
    }
    const responses = stored.get(attempt.key) ?? [];
    if (responses.length !== 1 || responses[0] !== attempt.answered) {
      campaign.fail(`key ${attempt.key} has ${responses.length} stored responses, not its answer alone`);
    }
  }
  for (const id of accounts.keys()) {
    if (!ids.has(id) && !campaign.duplicatedIds.has(id)) {
      campaign.duplicatedIds.add(id);
      campaign.fail(`account ${id} answers to no key: a duplicate`);
    }
  }
  if (stored.size !== campaign.answered.length) {
    campaign.fail(`${stored.size} stored responses for ${campaign.answered.length} keys`);
  }
  const integrity = await campaign.store.integrity();
  if (integrity === null) return;
  campaign.figures.integrityChecks++;
  if (integrity !== 'ok') campaign.fail(`${campaign.store.integrityName}: ${integrity}`);
}

/** Which servers a cycle kills: the only one; or, of two, the first, the second, then both, in turn. */
function victimsOf(cycle: number, processes: number): number[] {
  if (processes === 1) return [0];
  return [[0, 1], [0], [1]][cycle % 3]!;
}

/**
 * Traffic to every server, SIGKILL of the cycle's victims at a random moment (the process on odd cycles, its whole
 * process group on even ones) while the others keep serving a little longer, an immediate restart of each victim on
 * the same database, then every check.
 */
async function cycle(campaign: Campaign, servers: ServerProcess[]): Promise<ServerProcess[]> {
  const figures = campaign.figures;
  figures.cycles++;
  const agents = servers.map(() => new http.Agent(campaign.agentOptions));
  await campaign.reversals.prepare(agents[0]!, servers[0]!.url);
  await campaign.clock.prepare(agents[0]!, servers[0]!.url);
  const load = traffic(
    campaign,
    agents,
    servers.map((s) => s.url),
  );
  await sleep(randomInt(...campaign.options.killAfterMs));
  // Two cycles in three, the delivery processes die first, alone: their server starts others and keeps serving.
  if (figures.cycles % 3 !== 0) for (const server of servers) campaign.deliveries.killDeliveryProcesses(server.pid);
  await sleep(randomInt(...campaign.options.killAfterMs));
  const victims = victimsOf(figures.cycles, servers.length);
  const finished = load.stop(victims); // no request starts on a victim after this line; those in flight meet the kill
  for (const i of victims) killServer(servers[i]!, figures.cycles % 2 === 1 ? 'process' : 'group');
  const clockAtKill = campaign.clock.noteKill();
  const atKill = campaign.store.snapshot(campaign.orgId).then(
    (snapshot) => snapshot.events.unnumbered,
    () => 0,
  );
  const restarting = victims.map((i) => {
    const next = startServer(campaign.store.url);
    next.catch(() => undefined); // awaited below, after the traffic has settled
    return [i, next] as const;
  });
  if (victims.length < servers.length) await sleep(randomInt(100, 400)); // the survivors go on meanwhile
  await load.stop();
  await finished;
  for (const agent of agents) agent.destroy();
  figures.unnumberedAtKill += await atKill;
  await clockAtKill;
  const next = [...servers];
  for (const [i, restarted] of restarting) {
    const death = await servers[i]!.exited;
    if (death.signal !== 'SIGKILL') campaign.fail(`the killed server ended with ${JSON.stringify(death)}`);
    next[i] = await restarted;
  }

  const acked = load.attempts.filter((a) => a.answered !== undefined);
  const unanswered = load.attempts.filter((a) => a.answered === undefined);
  for (const a of unanswered.filter((a) => !victims.includes(a.server))) {
    figures.survivorsUnanswered++;
    campaign.fail(`server ${a.server} was not killed, yet left ${a.key} unanswered`);
  }
  figures.sent += load.attempts.length;
  figures.acknowledged += acked.length;
  figures.unanswered += unanswered.length;
  const fresh = new http.Agent(campaign.agentOptions);
  // Reads and retries go to every server in turn: a retry may meet another process than the one that was killed.
  let turn = 0;
  const url = () => next[turn++ % next.length]!.url;
  await readBack(campaign, fresh, url, acked);
  await eachLimited(unanswered, campaign.options.concurrency, (a) => retry(campaign, fresh, url(), a));
  campaign.answered.push(...acked, ...unanswered.filter((a) => a.answered !== undefined));
  await checkNumbered(campaign, fresh, url());
  await campaign.reversals.retry(fresh, url, load.reversals);
  await campaign.clock.finish(fresh, url, figures.cycles, load.advances);
  await campaign.clock.check(url());
  await campaign.bank.run(fresh, url());
  await campaign.reversals.check(fresh, url()); // and ledger verify, of the whole database
  fresh.destroy();
  await inspect(campaign);
  return next;
}

/** Every answered write's event is listed, numbered 1..n per org and mode, each number kept (test/crash/events.ts). */
async function checkNumbered(campaign: Campaign, agent: http.Agent, url: string): Promise<void> {
  const answered = new Set(campaign.answered.map((a) => JSON.parse(a.answered!).id as string));
  const faults = await checkEvents(agent, url, campaign.apiKey, answered, campaign.numbers);
  const figures = campaign.figures;
  figures.events = faults.listed;
  figures.eventsMissing += faults.missing.length;
  figures.eventsExtra += faults.extra.length;
  figures.numberingFaults += faults.numbering.length;
  for (const id of faults.missing.slice(0, 5)) campaign.fail(`account ${id} was answered, but its event is not listed`);
  for (const extra of faults.extra.slice(0, 5)) campaign.fail(`events for an account no key answered: ${extra}`);
  for (const fault of faults.numbering.slice(0, 5)) campaign.fail(`event numbers: ${fault}`);
}

async function signUp(campaign: Campaign, url: string): Promise<void> {
  const agent = new http.Agent();
  const answer = await send(agent, url, 'POST', '/v1/sandbox/signup', {}, { name: 'crash campaign' });
  agent.destroy();
  assert.equal(answer.status, 200, answer.text);
  const body = JSON.parse(answer.text);
  campaign.apiKey = body.api_key.key;
  campaign.orgId = body.org_id;
  campaign.eventsBefore = (await campaign.store.snapshot(campaign.orgId)).events.total;
  await campaign.deliveries.subscribe(url, campaign.apiKey);
}

/** Every answered account's creation event reached the receiver at least once, whatever was killed meanwhile. */
async function checkDelivered(campaign: Campaign): Promise<void> {
  const answered = new Set(campaign.answered.map((a) => JSON.parse(a.answered!).id as string));
  for (const id of (await campaign.deliveries.missing(answered)).slice(0, 5))
    campaign.fail(`account ${id} was answered, but its event was never delivered`);
}

/** One backend's campaign on a database of its own, dropped at the end whatever happened. */
export async function runCampaign(backend: Backend, options: Options): Promise<Figures> {
  const store = await openStore(backend);
  const campaign = new Campaign(backend, store, options);
  let servers: ServerProcess[] = [];
  try {
    for (let i = 0; i < options.processes; i++) servers.push(await startServer(store.url));
    await signUp(campaign, servers[0]!.url);
    const agent = new http.Agent();
    await campaign.reversals.setUp(agent, servers[0]!.url);
    await campaign.clock.setUp(agent, servers[0]!.url);
    await campaign.bank.setUp(agent, servers[0]!.url);
    agent.destroy();
    for (let i = 0; i < options.cycles; i++) {
      servers = await cycle(campaign, servers);
      options.progress?.(campaign.figures);
    }
    await checkDelivered(campaign);
    for (const server of servers) process.kill(server.pid, 'SIGTERM');
    for (const server of servers) {
      const end = await server.exited;
      if (end.code !== 0) campaign.fail(`the last server, sent SIGTERM, ended with ${JSON.stringify(end)}`);
    }
    await inspect(campaign); // once more on the closed database
  } catch (error) {
    campaign.fail(`stopped: ${error instanceof Error ? error.message : String(error)}`);
    for (const server of servers) stopAtOnce(server);
  } finally {
    campaign.deliveries.close();
    campaign.bank.close();
    await store.drop();
  }
  campaign.figures.lost = campaign.lostKeys.size;
  campaign.figures.duplicated = campaign.duplicatedIds.size;
  return campaign.figures;
}
