/**
 * `npm run test:clients`: the client conformance scenario (clients/README.md#what-every-client-does) for every language.
 *
 * Starts two real Plinth processes (`node src/server.ts`, each on a SQLite database in a temporary directory, on a
 * port the OS picks) and the rewriting proxy (rewriting-proxy.ts), then runs each clients/<lang>/conformance.sh
 * in turn with
 *   PLINTH_URL          a Plinth with limits high enough never to be met,
 *   PLINTH_PROXY_URL    the rewriting proxy in front of PLINTH_URL,
 *   PLINTH_LIMITED_URL  a second Plinth with RATE_LIMIT_SANDBOX=2, so a client meets 429s (sign-ups unlimited),
 *   PLINTH_RECEIVER_URL a webhook receiver on 127.0.0.1 (startReceiver below): `POST <url>/hook` answers 200 and
 *                       records the delivery; `GET <url>/deliveries?event=<evt id>` returns what it recorded for
 *                       that event as JSON `[{headers, body}]`, body the exact raw string, oldest first.
 * PLINTH_URL's server runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=on (sandbox endpoints may target 127.0.0.1) and a short
 * WEBHOOK_RETRY_SCHEDULE.
 * Languages share the servers: each signs up its own sandbox organisation, and everything it sees is scoped to it.
 *
 * conformance.sh exits 0 (pass), 77 (toolchain missing: SKIP, shown but not failed) or anything else (fail), within
 * CLIENTS_TIMEOUT_SECONDS (default 600: a cold Rust or Kotlin build on two busy cores). Its output goes to .tmp/clients-logs/<lang>.log; a failure prints its tail.
 * When it passes and the language has a package.sh, that runs next with the same environment and timeout (output in
 * .tmp/clients-logs/<lang>.package.log): it builds the language's package artefact, installs it into a fresh
 * project outside the repository and runs the README's quickstart there against PLINTH_URL. The language passes
 * only if both exit 0; its PASS line shows both times.
 * After a language's programs pass, the CLI's `ledger verify` (src/cli/main.ts) runs on PLINTH_URL's database (the
 * server keeps running: SQLite lets a second process read), so the money each language moved (transfers,
 * reversals, payments and their clearing accounts) must leave every invariant holding; its output goes to
 * .tmp/clients-logs/<lang>.verify.log, and a breach fails the language.
 * The last line is `clients: N passed, M failed`; the exit code is 1 when any failed. With CLIENTS_REQUIRE_ALL=1
 * (for CI, where install-toolchains.sh has run) a skipped language counts as failed.
 *
 *   node scripts/clients/run-conformance.ts [--only typescript,python] [--verbose]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startRewritingProxy } from './rewriting-proxy.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLIENTS = join(ROOT, 'clients');
const LOGS = join(ROOT, '.tmp/clients-logs');
const SKIP_EXIT = 77;

interface Plinth {
  url: string;
  /** Its DATABASE_URL, for the CLI's `ledger verify`. */
  databaseUrl: string;
  stop(): Promise<void>;
}

/** `node src/server.ts` on a fresh SQLite file; resolves with its URL once it logs that it listens. */
async function startPlinth(name: string, env: Record<string, string>): Promise<Plinth> {
  const dir = mkdtempSync(join(tmpdir(), `plinth-clients-${name}-`));
  const log = createWriteStream(join(LOGS, `server-${name}.log`));
  const databaseUrl = `sqlite:${join(dir, 'plinth.db')}`;
  const child: ChildProcess = spawn(process.execPath, ['src/server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      RATE_LIMIT_LIVE: '1000000',
      RATE_LIMIT_SANDBOX: '1000000',
      AUTH_FAILURE_BURST: '1000000',
      SIGNUP_PER_HOUR: '1000000',
      ...env,
    },
  });
  child.stderr!.pipe(log);
  const url = await new Promise<string>((found, failed) => {
    let seen = '';
    const timer = setTimeout(
      () => failed(new Error(`plinth ${name}: no "Server listening at" line within 30 s; see ${log.path}`)),
      30_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      seen += chunk.toString('utf8');
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        seen = '';
        found(match[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      failed(new Error(`plinth ${name} exited (${code}) before listening; see ${log.path}`));
    });
  });
  return {
    url,
    databaseUrl,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Delivery {
  headers: Record<string, string>;
  body: string;
}

/**
 * The webhook receiver: loopback only. `POST /hook` records the raw body (bytes decoded as UTF-8, which the event
 * JSON is) and the headers, keyed by `webhook-id`, and answers 200; `GET /deliveries?event=evt_…` returns them.
 */
async function startReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const byEvent = new Map<string, Delivery[]>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/hook') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string') headers[name] = value;
          else if (Array.isArray(value)) headers[name] = value.join(', ');
        }
        const id = headers['webhook-id'] ?? '';
        const list = byEvent.get(id) ?? [];
        list.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
        byEvent.set(id, list);
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/deliveries') {
      const found = byEvent.get(url.searchParams.get('event') ?? '') ?? [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(found));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}

interface Outcome {
  lang: string;
  result: 'pass' | 'fail' | 'skip';
  seconds: number;
  /** How long package.sh took, when it ran. */
  packageSeconds?: number;
  detail: string;
}

interface ScriptRun {
  code: number | null;
  seconds: number;
  timedOut: boolean;
  logPath: string;
}

/** Runs clients/<lang>/<script> with bash, its output into .tmp/clients-logs/<log>, killed after the timeout. */
async function runScript(
  lang: string,
  script: string,
  log: string,
  env: Record<string, string>,
  timeoutSeconds: number,
  verbose: boolean,
): Promise<ScriptRun> {
  const started = Date.now();
  const logPath = join(LOGS, log);
  const stream = createWriteStream(logPath);
  // detached: the script gets its own process group, so a timeout can end the build tools it started too.
  const child = spawn('bash', [script], {
    cwd: join(CLIENTS, lang),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const output of [child.stdout, child.stderr]) {
    output.on('data', (chunk: Buffer) => {
      stream.write(chunk);
      if (verbose) process.stdout.write(chunk.toString('utf8').replace(/^(?=.)/gm, `  ${lang} | `));
    });
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, timeoutSeconds * 1000);
  const code = await new Promise<number | null>((done) => child.on('close', (exitCode) => done(exitCode)));
  clearTimeout(timer);
  await new Promise((done) => stream.end(done));
  return { code, seconds: (Date.now() - started) / 1000, timedOut, logPath };
}

function tail(logPath: string): string {
  return readFileSync(logPath, 'utf8')
    .trimEnd()
    .split('\n')
    .slice(-25)
    .map((line) => `    ${line}`)
    .join('\n');
}

function failure(script: string, run: ScriptRun, timeoutSeconds: number): string {
  const why = run.timedOut ? `timed out after ${timeoutSeconds} s` : `exit ${run.code}`;
  return `${script} ${why}; log ${run.logPath}:\n${tail(run.logPath)}`;
}

/** `ledger verify` on the database at `databaseUrl`, its output into .tmp/clients-logs/<lang>.verify.log. */
async function ledgerVerify(lang: string, databaseUrl: string): Promise<ScriptRun> {
  const started = Date.now();
  const logPath = join(LOGS, `${lang}.verify.log`);
  const stream = createWriteStream(logPath);
  const child = spawn(process.execPath, ['src/cli/main.ts', 'ledger', 'verify'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(stream, { end: false });
  child.stderr.pipe(stream, { end: false });
  const code = await new Promise<number | null>((done) => child.on('close', (exitCode) => done(exitCode)));
  await new Promise((done) => stream.end(done));
  return { code, seconds: (Date.now() - started) / 1000, timedOut: false, logPath };
}

/**
 * conformance.sh, then `ledger verify` on the server's database, then (when both passed and the language has one)
 * package.sh with the same environment: the artefact built, installed outside the repository and run. The language
 * passes only if all do.
 */
async function runLanguage(
  lang: string,
  env: Record<string, string>,
  databaseUrl: string,
  timeoutSeconds: number,
  verbose: boolean,
): Promise<Outcome> {
  const conformance = await runScript(lang, 'conformance.sh', `${lang}.log`, env, timeoutSeconds, verbose);
  const seconds = conformance.seconds;
  if (conformance.code === SKIP_EXIT) {
    return { lang, result: 'skip', seconds, detail: tail(conformance.logPath).split('\n').at(-1)!.trim() };
  }
  if (conformance.code !== 0) {
    return { lang, result: 'fail', seconds, detail: failure('conformance.sh', conformance, timeoutSeconds) };
  }
  const verify = await ledgerVerify(lang, databaseUrl);
  if (verify.code !== 0) {
    return { lang, result: 'fail', seconds, detail: failure('ledger verify', verify, timeoutSeconds) };
  }
  if (!existsSync(join(CLIENTS, lang, 'package.sh'))) return { lang, result: 'pass', seconds, detail: '' };
  const pack = await runScript(lang, 'package.sh', `${lang}.package.log`, env, timeoutSeconds, verbose);
  const outcome = { lang, seconds, packageSeconds: pack.seconds };
  // The toolchain was there for conformance.sh, so a package.sh that says it is missing is a failure.
  if (pack.code !== 0) return { ...outcome, result: 'fail', detail: failure('package.sh', pack, timeoutSeconds) };
  return { ...outcome, result: 'pass', detail: '' };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, verbose: { type: 'boolean', default: false } } });
  const only = values.only?.split(',').map((s) => s.trim());
  const timeoutSeconds = Number(process.env.CLIENTS_TIMEOUT_SECONDS ?? 600);
  const requireAll = process.env.CLIENTS_REQUIRE_ALL === '1';
  const langs = readdirSync(CLIENTS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(CLIENTS, entry.name, 'conformance.sh')))
    .map((entry) => entry.name)
    .filter((lang) => !only || only.includes(lang))
    .sort();
  mkdirSync(LOGS, { recursive: true });

  const receiver = await startReceiver();
  const plinth = await startPlinth('main', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on', WEBHOOK_RETRY_SCHEDULE: '1s,1s' });
  const limited = await startPlinth('limited', { RATE_LIMIT_SANDBOX: '2' });
  const proxy = await startRewritingProxy(plinth.url);
  const env = {
    PLINTH_URL: plinth.url,
    PLINTH_PROXY_URL: proxy.url,
    PLINTH_LIMITED_URL: limited.url,
    PLINTH_RECEIVER_URL: receiver.url,
  };
  process.stdout.write(
    `# servers: ${plinth.url} (limited: ${limited.url}, proxy: ${proxy.url}, receiver: ${receiver.url}); logs in ${LOGS}\n`,
  );

  const outcomes: Outcome[] = [];
  try {
    for (const lang of langs) {
      const outcome = await runLanguage(lang, env, plinth.databaseUrl, timeoutSeconds, values.verbose);
      outcomes.push(outcome);
      const packaged = outcome.packageSeconds === undefined ? '' : `; package ${outcome.packageSeconds.toFixed(1)} s`;
      const time = `${outcome.seconds.toFixed(1)} s${packaged}`;
      if (outcome.result === 'pass') process.stdout.write(`PASS ${lang} (${time})\n`);
      else if (outcome.result === 'skip') process.stdout.write(`SKIP ${lang}: toolchain missing (${outcome.detail})\n`);
      else process.stdout.write(`FAIL ${lang} (${time}): ${outcome.detail}\n`);
    }
  } finally {
    await proxy.close();
    await receiver.close();
    await Promise.all([plinth.stop(), limited.stop()]);
  }

  const skipped = outcomes.filter((o) => o.result === 'skip');
  const passed = outcomes.filter((o) => o.result === 'pass').length;
  const failed = outcomes.filter((o) => o.result === 'fail').length + (requireAll ? skipped.length : 0);
  if (skipped.length > 0) {
    process.stdout.write(
      `skipped: ${skipped.length} (${skipped.map((o) => o.lang).join(', ')})${requireAll ? ', counted as failed (CLIENTS_REQUIRE_ALL=1)' : ''}\n`,
    );
  }
  process.stdout.write(`clients: ${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main();
