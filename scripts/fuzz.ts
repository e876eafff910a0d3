/**
 * The independent fuzzer (issue 11): Schemathesis, from PyPI at a pinned version, against a real `node src/server.ts`
 * on a temporary SQLite database, reading the document the server itself serves at /v1/openapi.json, with every
 * check, authenticated with a key obtained the way a new user gets one (POST /v1/sandbox/signup).
 *
 *   node scripts/fuzz.ts [--examples N]     (`npm run test:fuzz` runs it with 1000)
 *
 * Requests per operation are counted from the server's own log (one line per request, with its route), so the
 * figures do not depend on the fuzzer's bookkeeping. Exit code: Schemathesis's (0 only with no failure).
 * Traffic goes to 127.0.0.1 only. Without python3 the run is skipped with a visible line (exit 0) unless CI=true.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, spawnServer } from '../test/helpers/process.ts';

const SCHEMATHESIS = 'schemathesis==4.32.5';
const VENV = join(ROOT, '.tmp', 'schemathesis-venv');
const ST = join(VENV, 'bin', 'st');

const { values } = parseArgs({ options: { examples: { type: 'string', default: '25' } } });
const examples = Number(values.examples);

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
});
let status = 1;
const served = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as { paths: Record<string, object> };
// Every operation of the document, in the server log's terms (`GET /v1/fintech/accounts/:id`).
const operations = Object.entries(served.paths).flatMap(([path, item]) =>
  Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
);
try {
  const signup = await fetch(`${server.url}/v1/sandbox/signup`, { method: 'POST' });
  const { api_key: apiKey } = (await signup.json()) as { api_key: { key: string } };
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
      '--header',
      `Authorization: Bearer ${apiKey.key}`,
      '--max-examples',
      String(examples),
      '--seed',
      String(Date.now() % 1_000_000),
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], cwd: dir, env: { ...process.env, NO_COLOR: '1' } },
  );
  // A hard bound on the run, whatever the fuzzer does: far above its pace here (~20 s for 25, ~8 min for 1000).
  const bound = setTimeout(() => st.kill('SIGKILL'), Math.max(600, examples * 2) * 1000);
  const [code, signal] = (await once(st, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(bound);
  status = code ?? 1;
  if (signal) process.stdout.write(`# schemathesis did not finish: ${signal}\n`);
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}

// Requests per operation, from the server's log: one line per request naming its route pattern.
const counts = new Map<string, number>();
for (const line of server.lines) {
  if (!line.includes('"msg":"request"')) continue;
  const { method, route } = JSON.parse(line) as { method?: string; route?: string | null };
  const name = `${method ?? '(unparsed request)'} ${route ?? '(no route)'}`;
  counts.set(name, (counts.get(name) ?? 0) + 1);
}
process.stdout.write('\n# requests the server answered, by operation (its own log):\n');
for (const [name, n] of [...counts].sort()) process.stdout.write(`#   ${String(n).padStart(7)}  ${name}\n`);
const untested = operations.filter((o) => !counts.has(o));
if (untested.length > 0) {
  process.stdout.write(`# operations the fuzzer never reached: ${untested.join(', ')}\n`);
  status ||= 1;
}
const perOperation = operations.map((o) => counts.get(o) ?? 0);
process.stdout.write(
  `# ${operations.length} operations; requests per operation: min ${Math.min(...perOperation)}, ` +
    `max ${Math.max(...perOperation)}\n`,
);
process.stdout.write(`# fuzz: ${status === 0 ? 'no failures' : 'FAILURES (see above)'}\n`);
process.exit(status);
