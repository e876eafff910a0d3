/**
 * `npm test`: the whole suite once on SQLite, then once more on PostgreSQL when TEST_POSTGRES_URL names a
 * database to create test databases from (CI always sets it; elsewhere the PostgreSQL pass is skipped with a
 * visible line). Exits non-zero when either pass fails.
 */
import { spawnSync } from 'node:child_process';

function pass(backend: 'sqlite' | 'postgres'): number {
  process.stdout.write(`\n# ===== test pass: ${backend === 'sqlite' ? 'SQLite (embedded)' : 'PostgreSQL'} =====\n`);
  const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', 'test/**/*.test.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PLINTH_TEST_BACKEND: backend },
  });
  return result.status ?? 1;
}

let failed = pass('sqlite') !== 0;
if (process.env.TEST_POSTGRES_URL) {
  failed = pass('postgres') !== 0 || failed;
} else if (process.env.CI) {
  process.stdout.write('# the PostgreSQL pass is required in CI: set TEST_POSTGRES_URL\n');
  failed = true;
} else {
  process.stdout.write(
    '\n# SKIPPED: the PostgreSQL pass. Set TEST_POSTGRES_URL=postgres://user@host:5432/db (a role that may create databases) to run it.\n',
  );
}
process.exit(failed ? 1 : 0);
