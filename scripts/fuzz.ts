/**
 * The independent fuzzer (issue 11): Schemathesis, from PyPI at a pinned version, against a real `node src/server.ts`
 * on a temporary SQLite database, reading the document the server itself serves at /v1/openapi.json, with every
 * check (`--checks all`), authenticated with keys obtained the way a new user gets one (POST /v1/sandbox/signup).
 *
 *   node scripts/fuzz.ts [--examples N] [--revoke-after PHASE] [--restricted GROUP=LEVEL,…]
 *   (`npm run test:fuzz` runs it with 1000; FUZZ_SEED=N replays a run whose phase printed "Seed: N")
 *
 * Two sandbox organisations (issue 23, finding 8): the fuzzing key's, used by every operation but two, and a second
 * one whose key creates and revokes keys (test/fuzz/schemathesis.toml). The fuzzer revokes keys it learns of from
 * responses, and the fuzzing key's id is in every list of keys it reads; revoked, it turned every later request into
 * a 401 that counted as a pass. The second organisation's key is never shown to the fuzzer, so it can only revoke
 * the keys it created itself. The phases run one Schemathesis process each, so that the server's log says which
 * phase each request belongs to.
 *
 * The run fails when Schemathesis finds a failure, and also when the server's own log (one line per request, with
 * its route and status) shows that it was not fuzzing: an operation never reached, an operation that got only 401
 * or 403 in a phase, or a key that no longer authenticates at the end. `--revoke-after PHASE` revokes the fuzzing key
 * once that phase is over, to show that these checks fail the run (`npm test` runs it so).
 *
 * One generator is added to Schemathesis' own (test/fuzz/hooks.py, `flatmap_body`): a lone UTF-16 surrogate in a
 * string or a key of about one body in eight (in every phase but the stateful one), which Hypothesis never draws and
 * which was a 500 on PostgreSQL (issue 30). The run fails too when no such body was sent and refused as the API's
 * rule says.
 * `--restricted accounts=write,events=read` fuzzes with a restricted key of those permissions (docs/api.md#restricted-keys),
 * for every operation, key creation and revocation included: the run fails unless each operation the key may call
 * answered 2xx and was never refused for its permission, and each other one answered only 401/403, with a
 * `permission_denied` among them (test/fuzz/hooks.py records those).
 * Traffic goes to 127.0.0.1 only. Without python3 the run is skipped with a visible line (exit 0) unless CI=true.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { allows, type KeyPermissions, type Permission, parsePermissions } from '../src/platform/auth/permissions.ts';
import {
  type Answers,
  answersByOperation,
  answersTable,
  documentedOperations,
  fuzzingGaps,
  refusalsTable,
  restrictedGaps,
} from '../test/fuzz/answers.ts';
import { ROOT, spawnServer } from '../test/helpers/process.ts';

const SCHEMATHESIS = 'schemathesis==4.32.5';
const VENV = join(ROOT, '.tmp', 'schemathesis-venv');
const ST = join(VENV, 'bin', 'st');
const PHASES = ['examples', 'coverage', 'fuzzing', 'stateful'] as const;

const { values } = parseArgs({
  options: {
    examples: { type: 'string', default: '25' },
    'revoke-after': { type: 'string' },
    restricted: { type: 'string' },
  },
});
const examples = Number(values.examples);
const revokeAfter = values['revoke-after'];
// `accounts=write,events=read` as the permissions of a key (a group left out is none).
const restricted: KeyPermissions | null =
  values.restricted === undefined
    ? null
    : parsePermissions(JSON.stringify(Object.fromEntries(values.restricted.split(',').map((p) => p.split('=')))));
if (revokeAfter !== undefined && !(PHASES as readonly string[]).includes(revokeAfter)) {
  process.stdout.write(`# --revoke-after takes one of ${PHASES.join(', ')}\n`);
  process.exit(2);
}

function installSchemathesis(): boolean {
  const python = spawnSync('python3', ['--version']);
  if (python.status !== 0) return false;
  const version = spawnSync(ST, ['--version'], { encoding: 'utf8' });
  if (version.status === 0 && version.stdout.includes(SCHEMATHESIS.split('==')[1]!)) return true;
  process.stdout.write(`# installing ${SCHEMATHESIS} into ${VENV}\n`);
  if (!existsSync(VENV)) spawnSync('python3', ['-m', 'venv', VENV], { stdio: 'inherit' });
  const pip = spawnSync(join(VENV, 'bin', 'pip'), ['install', '-q', '--disable-pip-version-check', SCHEMATHESIS], {
    stdio: 'inherit',
  });
  return pip.status === 0;
}

if (!installSchemathesis()) {
  process.stdout.write('# SKIPPED: the Schemathesis fuzzer needs python3 with venv and pip\n');
  process.exit(process.env.CI ? 1 : 0);
}

const dir = mkdtempSync(join(tmpdir(), 'plinth-fuzz-'));
// Limits lifted so that the fuzzer explores inputs instead of collecting 429s (the rate-limit tests cover those).
const server = await spawnServer({
  DATABASE_URL: `sqlite:${join(dir, 'plinth.db')}`,
  RATE_LIMIT_LIVE: '1000000',
  RATE_LIMIT_SANDBOX: '1000000',
  AUTH_FAILURE_BURST: '1000000',
  SIGNUP_PER_HOUR: '1000000',
  // The live event stream stays open until the client leaves; the fuzzer waits for whole answers, so end it soon.
  EVENT_STREAM_MAX_SECONDS: '1',
});

// This script's own requests (sign-ups, probes, markers) are left out of the fuzzer's figures, by their Request-Id.
const ownRequests = new Set<string>();
async function ownCall(method: string, path: string, key?: string, json?: object): Promise<Response> {
  const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const body = json === undefined ? undefined : JSON.stringify(json);
  const reply = await fetch(`${server.url}${path}`, { method, headers, body });
  ownRequests.add(reply.headers.get('request-id') ?? '');
  return reply;
}

interface Key {
  id: string;
  key: string;
}
async function signUp(): Promise<Key> {
  return ((await (await ownCall('POST', '/v1/sandbox/signup')).json()) as { api_key: Key }).api_key;
}

/** A restricted key of the fuzzing organisation, made with its full key. */
async function restrictedKey(owner: Key, permissions: KeyPermissions): Promise<Key> {
  const reply = await ownCall('POST', '/v1/api_keys', owner.key, { name: 'fuzz (restricted)', permissions });
  if (!reply.ok) throw new Error(`a restricted key was refused: ${reply.status} ${await reply.text()}`);
  return (await reply.json()) as Key;
}

/** Whether a key still authenticates, asked of the server with the key itself (or a full key of its org). */
async function stillWorks(key: Key, asker = key): Promise<boolean> {
  const reply = await ownCall('GET', `/v1/api_keys/${key.id}`, asker.key);
  return reply.ok && ((await reply.json()) as { revoked_at: string | null }).revoked_at === null;
}

/** The sabotage of `--revoke-after`: the fuzzing key revoked, as the fuzzer itself once did it. */
async function revoke(key: Key): Promise<void> {
  await ownCall('POST', '/v1/api_keys', key.key); // its org's last key cannot be revoked
  const reply = await ownCall('POST', `/v1/api_keys/${key.id}/revoke`, key.key);
  process.stdout.write(`\n# --revoke-after: the fuzzing key ${key.id} revoked (${reply.status})\n`);
}

/** The log lines written since `from`, up to a marker request: every answer sent before it is in them. */
async function linesSince(from: number): Promise<{ lines: string[]; next: number }> {
  const marker = (await ownCall('GET', '/healthz')).headers.get('request-id')!;
  for (let waited = 0; waited < 10_000; waited += 20) {
    const at = server.lines.findIndex((line, i) => i >= from && line.includes(marker));
    if (at >= 0) return { lines: server.lines.slice(from, at), next: at + 1 };
    await sleep(20);
  }
  throw new Error('the server did not log a marker request within 10 s');
}

/**
 * An account number of the fuzzing organisation, made with its full key: the fuzzer reads and updates it by id
 * (test/fuzz/schemathesis.toml), since nothing it can learn leads it from a number's create to its id reliably.
 */
async function fixtureAccountNumber(owner: Key): Promise<string> {
  const account = await ownCall('POST', '/v1/fintech/accounts', owner.key, { type: 'business', country: 'US' });
  const accountId = ((await account.json()) as { id: string }).id;
  const number = await ownCall('POST', '/v1/fintech/account_numbers', owner.key, { account_id: accountId });
  if (!number.ok) throw new Error(`the fixture account number was refused: ${number.status} ${await number.text()}`);
  return ((await number.json()) as { id: string }).id;
}

let accountNumberId = '';

async function runPhase(phase: string, key: Key, keysKey: Key): Promise<number> {
  // Asynchronous on purpose: this process must keep reading the server's log while the fuzzer runs (spawnSync
  // would stop the event loop, the server's stdout pipe would fill, and its log writer would drop lines).
  const st = spawn(
    ST,
    [
      '--config-file',
      join(ROOT, 'test', 'fuzz', 'schemathesis.toml'),
      'run',
      `${server.url}/v1/openapi.json`,
      '--url',
      server.url,
      '--phases',
      phase,
      // Every operation: without a filter, Schemathesis leaves out the one that serves the document it loaded.
      '--include-path-regex',
      '^/',
      '--checks',
      'all',
      '--header',
      `Authorization: Bearer ${key.key}`,
      '--max-examples',
      String(examples),
      '--seed',
      // FUZZ_SEED replays a run: each phase prints its seed ("Seed: N").
      process.env.FUZZ_SEED ?? String(Date.now() % 1_000_000),
    ],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      cwd: dir,
      env: {
        ...process.env,
        NO_COLOR: '1',
        SCHEMATHESIS_HOOKS: join(ROOT, 'test', 'fuzz', 'hooks.py'),
        PLINTH_FUZZ_PHASE: phase,
        PLINTH_FUZZ_KEYS_KEY: keysKey.key,
        PLINTH_FUZZ_ACCOUNT_NUMBER_ID: accountNumberId,
      },
    },
  );
  // A hard bound on the phase, whatever the fuzzer does: far above its pace here.
  const bound = setTimeout(() => st.kill('SIGKILL'), Math.max(600, examples * 2) * 1000);
  const [code, signal] = (await once(st, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(bound);
  if (signal) process.stdout.write(`# schemathesis did not finish the ${phase} phase: ${signal}\n`);
  return code ?? 1;
}

let status = 0;
const served = (await (await ownCall('GET', '/v1/openapi.json')).json()) as {
  paths: Record<string, Record<string, { 'x-permission'?: Permission }>>;
};
const operations = documentedOperations(served);
const byPhase = new Map<string, Map<string, Answers>>();
const gaps: string[] = [];
let acceptedText = '';
const deniedOperations = new Set<string>();
try {
  const owner = await signUp();
  accountNumberId = await fixtureAccountNumber(owner);
  // With --restricted, every operation runs with the restricted key: key creation and revocation too.
  const key = restricted === null ? owner : await restrictedKey(owner, restricted);
  const keysKey = restricted === null ? await signUp() : key;
  let from = server.lines.length;
  for (const phase of PHASES) {
    process.stdout.write(`\n# ===== Schemathesis, ${phase} phase =====\n`);
    const code = await runPhase(phase, key, keysKey);
    status ||= code;
    const { lines, next } = await linesSince(from);
    byPhase.set(phase, answersByOperation(lines, ownRequests));
    from = next;
    if (phase === revokeAfter) await revoke(key);
  }
  for (const [who, k] of [
    ['fuzzing key', key],
    ['key of the API-key operations', keysKey],
  ] as const)
    if (!(await stillWorks(k, restricted === null ? k : owner)))
      gaps.push(`the ${who} ${k.id} no longer authenticates: it was revoked during the run`);
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  const accepted = join(dir, 'accepted-refusals.txt');
  acceptedText = existsSync(accepted) ? readFileSync(accepted, 'utf8') : '';
  const denied = join(dir, 'permission-denied.txt');
  for (const line of (existsSync(denied) ? readFileSync(denied, 'utf8') : '').split('\n'))
    if (line !== '') deniedOperations.add(line.replace(/\{(\w+)\}/g, ':$1'));
  if (acceptedText !== '') process.stdout.write(refusalsTable(acceptedText));
  rmSync(dir, { recursive: true, force: true });
}

// The server's own account of every 5xx (its error and stack are in its log line, never in the answer).
for (const line of server.lines)
  if (/"status":5\d\d|"level":[56]0/.test(line)) process.stdout.write(`# server: ${line}\n`);

// What each operation got, from the server's log: a phase in which some operation never got past authentication
// tested nothing there, whatever the fuzzer counted as passed.
const answers = answersByOperation(server.lines, ownRequests);
process.stdout.write(`\n# answers by operation, all phases (the server's own log):\n${answersTable(answers)}\n`);
if (restricted === null) gaps.push(...fuzzingGaps(operations, byPhase));
else {
  // Every keyed operation, and whether this key may call it, from the permission the served document states.
  const allowed = new Map<string, boolean>();
  for (const [path, item] of Object.entries(served.paths))
    for (const [method, operation] of Object.entries(item))
      if (operation['x-permission'] !== undefined)
        allowed.set(
          `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
          allows(restricted, operation['x-permission']),
        );
  const permitted = operations.filter((o) => allowed.get(o) !== false);
  gaps.push(...fuzzingGaps(permitted, byPhase), ...restrictedGaps(allowed, answers, deniedOperations));
  process.stdout.write(
    `# restricted key ${values.restricted}: ${[...allowed.values()].filter(Boolean).length} of ${allowed.size} keyed operations allowed\n`,
  );
}
if (!acceptedText.includes('lone UTF-16 surrogate'))
  gaps.push('no body with a lone UTF-16 surrogate was refused (test/fuzz/hooks.py, flatmap_body)');
const perOperation = operations.map((o) => answers.get(o)?.total ?? 0);
process.stdout.write(
  `# ${operations.length} operations; requests per operation: min ${Math.min(...perOperation)}, ` +
    `max ${Math.max(...perOperation)}; operations with no 2xx: ` +
    `${operations.filter((o) => (answers.get(o)?.succeeded ?? 0) === 0).join(', ') || 'none'}\n`,
);
for (const gap of gaps) process.stdout.write(`# NOT FUZZED: ${gap}\n`);
if (gaps.length > 0) status ||= 1;
process.stdout.write(`# fuzz: ${status === 0 ? 'no failures' : 'FAILURES (see above)'}\n`);
process.exit(status);
