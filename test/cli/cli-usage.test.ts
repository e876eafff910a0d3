import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { freshDatabase, type TestDatabase } from '../helpers/database.ts';
import { run } from '../helpers/process.ts';

describe('operator CLI: a wrong command line says what is wrong (issue 11, finding 6)', () => {
  let db: TestDatabase;
  const cli = (...args: string[]) => run(['src/cli/main.ts', ...args], { DATABASE_URL: db.url });
  before(async () => {
    db = await freshDatabase();
  });
  after(() => db.drop());

  test('--help prints the usage on stdout and exits 0', async () => {
    for (const help of [['--help'], ['-h'], ['keys', 'create', '--help']]) {
      const result = await cli(...help);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^usage: /);
    }
  });

  test('a missing or wrong option is named, then the usage, exit 64', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['keys', 'create', '--mode', 'sandbox'], /needs --org/],
      [['keys', 'create', '--org', 'acme'], /needs --mode sandbox or --mode live/],
      [['keys', 'create', '--org', 'acme', '--mode', 'prod'], /not prod/],
      [['keys', 'list'], /needs --org/],
      [['keys', 'revoke'], /exactly one key id/],
      [['keys', 'create', '--org', 'acme', '--mode', 'live', '--colour'], /--colour/],
      [['keyz', 'create'], /unknown command "keyz create"/],
      [[], /no command/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(...args);
      assert.equal(result.code, 64, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
      assert.match(result.stderr, /usage: /);
      assert.equal(result.stdout, '');
    }
  });
});
