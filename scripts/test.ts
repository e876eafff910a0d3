/**
 * `npm test`, the one command that runs every check, in order: the type check, Biome, the whole suite on SQLite,
 * the whole suite again on PostgreSQL when TEST_POSTGRES_URL names a database to create test databases from (CI
 * always sets it; elsewhere that pass is skipped with a visible line), then the client libraries' conformance run.
 * Each step prints a header; the exit code is non-zero when any step failed.
 */
import { spawnSync } from 'node:child_process';

// Test files run side by side: each starts its own server on its own database and port, so they share nothing.
const CONCURRENCY = process.env.TEST_CONCURRENCY ?? '4';
const bin = (name: string) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** A check of a check: the step passes when the command fails (exit 1) and prints this. */
  mustFailWith?: RegExp;
  /** A `# SKIPPED` run (exit 0) passes even in CI: the machine cannot run it (no FUSE in a container). */
  skipsAnywhere?: boolean;
}

function run(step: Step): boolean {
  process.stdout.write(`\n# ===== ${step.name} =====\n`);
  const started = Date.now();
  const [command, ...args] = step.command;
  const env = { ...process.env, ...step.env };
  let ok: boolean;
  if (step.mustFailWith === undefined) {
    ok = spawnSync(command!, args, { stdio: 'inherit', env }).status === 0;
  } else {
    const result = spawnSync(command!, args, { stdio: ['inherit', 'pipe', 'inherit'], env, encoding: 'utf8' });
    process.stdout.write(result.stdout);
    // A machine without python3 skips the fuzzer (outside CI), and so this check of it.
    const skipped =
      (!process.env.CI || step.skipsAnywhere) && result.status === 0 && result.stdout.includes('# SKIPPED');
    ok = skipped || (result.status === 1 && step.mustFailWith.test(result.stdout));
  }
  process.stdout.write(`# ${step.name}: ${ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return ok;
}

const suite = (backend: 'sqlite' | 'postgres'): Step => ({
  name: `test pass: ${backend === 'sqlite' ? 'SQLite (embedded)' : 'PostgreSQL'}`,
  command: [
    process.execPath,
    '--test',
    `--test-concurrency=${CONCURRENCY}`,
    '--test-reporter=spec',
    'test/**/*.test.ts',
  ],
  env: { PLINTH_TEST_BACKEND: backend },
});

const steps: Step[] = [
  { name: 'type check (tsc --noEmit)', command: [bin('tsc'), '--noEmit', '-p', '.'] },
  { name: 'lint and format (biome check)', command: [bin('biome'), 'check', '.'] },
  suite('sqlite'),
];
let failed = false;
if (process.env.TEST_POSTGRES_URL) {
  steps.push(suite('postgres'));
} else if (process.env.CI) {
  process.stdout.write('# the PostgreSQL pass is required in CI: set TEST_POSTGRES_URL\n');
  failed = true;
} else {
  process.stdout.write(
    '\n# SKIPPED: the PostgreSQL pass. Set TEST_POSTGRES_URL=postgres://user@host:5432/db ' +
      '(a role that may create databases) to run it.\n',
  );
}
// The campaigns' short runs (issue 11); their full runs are `npm run test:fuzz` and the commands in SECURITY.md.
steps.push({
  name: 'fuzz: Schemathesis, short run',
  command: [process.execPath, 'scripts/fuzz.ts', '--examples', '25'],
});
// A restricted key (docs/api.md#restricted-keys): 2xx for what it may call, only 401/403 for the rest.
steps.push({
  name: 'fuzz: Schemathesis with a restricted key, short run',
  command: [
    process.execPath,
    'scripts/fuzz.ts',
    '--examples',
    '5',
    '--restricted',
    'accounts=write,events=read,api_keys=read',
  ],
});
// The fuzz run's own checks, checked (issue 23): with its key revoked after a phase, the run must fail, saying so.
steps.push({
  name: 'fuzz: a run whose key is revoked midway fails (node scripts/fuzz.ts --revoke-after coverage)',
  command: [process.execPath, 'scripts/fuzz.ts', '--examples', '3', '--revoke-after', 'coverage'],
  mustFailWith: /# NOT FUZZED: .* only 401\/403 in the fuzzing phase[\s\S]*# fuzz: FAILURES/,
});
// The crash campaign's short run (the full one is `npm run test:crash`, 50 cycles per backend): SQLite, and
// PostgreSQL when TEST_POSTGRES_URL is set, as above.
steps.push({
  name: 'crash campaign, short run (npm run test:crash with CRASH_CYCLES=3)',
  command: [process.execPath, 'test/crash/main.ts'],
  env: { CRASH_CYCLES: '3', CRASH_BACKENDS: process.env.TEST_POSTGRES_URL ? 'sqlite,postgres' : 'sqlite' },
});
// The power-loss campaign's short run (the full one is `npm run test:powerloss`): one cycle per kind of cut, on
// test/powerloss/lazyfs.py; where FUSE cannot run, both steps print why and are skipped.
steps.push({
  name: 'power-loss campaign, short run (npm run test:powerloss with POWERLOSS_CYCLES=4)',
  command: [process.execPath, 'test/powerloss/main.ts'],
  env: { POWERLOSS_CYCLES: '4' },
});
// Its control: with the WAL sync a no-op, the same campaign must find acknowledged writes lost.
steps.push({
  name: 'power-loss campaign with no WAL sync finds lost writes (POWERLOSS_UNSAFE=1)',
  command: [process.execPath, 'test/powerloss/main.ts'],
  env: { POWERLOSS_CYCLES: '12', POWERLOSS_UNSAFE: '1', POWERLOSS_STOP_AFTER_LOSSES: '2' },
  mustFailWith: /with no WAL sync: .* lost [1-9]\d* \(in [1-9]\d* cycles\)[\s\S]*# test:powerloss: FAILED/,
  skipsAnywhere: true,
});
// Every client library against a live Plinth; in CI a language whose toolchain is missing counts as a failure.
steps.push({
  name: 'client libraries: the conformance scenario in every language',
  command: [process.execPath, 'scripts/clients/run-conformance.ts'],
  env: process.env.CI ? { CLIENTS_REQUIRE_ALL: '1' } : {},
});
for (const step of steps) failed = !run(step) || failed;
process.stdout.write(`\n# npm test: ${failed ? 'FAILED' : 'all steps passed'}\n`);
process.exit(failed ? 1 : 0);
