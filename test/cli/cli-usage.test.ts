import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.ts';
import { generateKey } from '../../src/platform/auth/key-format.ts';
import { run } from '../helpers/process.ts';

// No DATABASE_URL: a command line that cannot run is refused before anything opens the database.
const cli = (...args: string[]) => run(['src/cli/main.ts', ...args], { DATABASE_URL: '' });
const USAGE = 'Usage: npm run --silent cli -- ';

/** Every command that acts, written out by hand (README's Operator CLI); the tree must have exactly these. */
const COMMANDS = [
  'keys create',
  'keys list',
  'keys revoke',
  'secrets rotate',
  'migrate',
  'accounts freeze',
  'accounts unfreeze',
  'accounts close',
  'ledger verify',
  'bank ach-export',
  'bank import',
  'bank exceptions',
  'bank resolve',
  'bank reconcile',
  'audit verify',
  'audit rotate-key',
  'listen',
];

function* walk(command: Command, path: string[] = []): Generator<string[]> {
  yield path;
  for (const sub of command.commands) yield* walk(sub, [...path, sub.name()]);
}

describe('operator CLI: every command explains itself, and a wrong command line says what is wrong (issue 34)', () => {
  test('--help lists every command on stdout, exit 0; so do -h and `help`', async () => {
    for (const help of [['--help'], ['-h'], ['help']]) {
      const result = await cli(...help);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(result.stdout.startsWith(`${USAGE}[options] [command]\n`), result.stdout);
      const listed = [...result.stdout.matchAll(/^ {2}([a-z]+(?: [a-z-]+)?) (?:\[options\]|<|\n| )/gm)].map(
        (m) => m[1],
      );
      for (const command of COMMANDS) assert.ok(listed.includes(command), `${help}: ${command} missing: ${listed}`);
    }
  });

  test('every command and subcommand answers --help with its own usage, exit 0', async () => {
    const paths = [...walk(buildProgram(() => {}))];
    const leaves = paths.filter((p) => !paths.some((q) => q.length > p.length && p.every((n, i) => q[i] === n)));
    assert.deepEqual(leaves.map((p) => p.join(' ')).sort(), [...COMMANDS].sort());
    const results = await Promise.all(paths.map((path) => cli(...path, '--help')));
    for (const [i, path] of paths.entries()) {
      const result = results[i]!;
      assert.equal(result.code, 0, `${path.join(' ')}: ${result.stderr}`);
      assert.equal(result.stderr, '');
      assert.ok(result.stdout.startsWith(`${USAGE}${path.map((p) => `${p} `).join('')}`), result.stdout);
    }
  });

  test('a usage error names what is wrong, then the command’s usage line, exit 64 (EX_USAGE)', async () => {
    const cases: Array<[string[], RegExp, string]> = [
      [[], /missing command: one of keys, secrets, migrate, accounts, ledger, bank, audit, listen/, ''],
      [['ledger'], /missing command after 'ledger': verify/, 'ledger '],
      [['bank', 'ach-export'], /required option '--out <dir>' not specified/, 'bank ach-export '],
      [['audit', 'verify', '--org', 'acme'], /required option '--mode <mode>' not specified/, 'audit verify '],
      [['audit'], /missing command after 'audit': one of verify, rotate-key/, 'audit '],
      [['keys'], /missing command after 'keys': one of create, list, revoke/, 'keys '],
      [['accounts', 'list'], /unknown command 'accounts list'; 'accounts' takes freeze, unfreeze, close/, 'accounts '],
      [['keyz', 'create'], /unknown command 'keyz'/, ''],
      [['accounts', 'freeze', '--reason', 'other'], /missing required argument 'id'/, 'accounts freeze '],
      [['accounts', 'freeze', 'acct_x'], /required option '--reason <reason>' not specified/, 'accounts freeze '],
      [['accounts', 'unfreeze', 'acct_x', '--reason', 'other'], /unknown option '--reason'/, 'accounts unfreeze '],
      [['accounts', 'close', 'acct_x', 'acct_y'], /too many arguments/, 'accounts close '],
      [['keys', 'revoke'], /missing required argument 'key'/, 'keys revoke '],
      [['keys', 'create', '--mode', 'sandbox'], /required option '--org <org>' not specified/, 'keys create '],
      [['keys', 'create', '--org', 'acme'], /required option '--mode <mode>' not specified/, 'keys create '],
      [
        ['keys', 'create', '--org', 'acme', '--mode', 'prod'],
        /'prod' is invalid. Allowed choices are sandbox, live/,
        'keys create ',
      ],
      [['keys', 'create', '--org', 'a', '--mode', 'live', '--colour'], /unknown option '--colour'/, 'keys create '],
      [
        ['keys', 'create', '--org', 'a', '--mode', 'live', '--permissions', 'ledger=read'],
        /no group "ledger"/,
        'keys create ',
      ],
      [['keys', 'list'], /required option '--org <org>' not specified/, 'keys list '],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(...args)));
    for (const [i, [args, message, path]] of cases.entries()) {
      const result = results[i]!;
      assert.equal(result.code, 64, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, new RegExp(`^plinth: [^\n]*${message.source}`), args.join(' '));
      assert.ok(result.stderr.includes(`\nusage: npm run --silent cli -- ${path}`), result.stderr);
      assert.equal(result.stdout, '');
    }
  });

  test('the reasons are the API’s, per command: freeze and close each offer exactly their endpoint’s (64 otherwise)', async () => {
    // docs/api.md#account-lifecycle: the freeze and close bodies' reason enums, written out here by hand.
    const reasons: Array<[string, string[], string]> = [
      ['freeze', ['suspected_fraud', 'compliance_review', 'customer_request', 'other'], 'fraud'],
      ['close', ['customer_request', 'fraud', 'compliance', 'other'], 'suspected_fraud'],
    ];
    for (const [verb, allowed, foreign] of reasons) {
      const help = await cli('accounts', verb, '--help');
      assert.ok(
        help.stdout.replace(/\s+/g, ' ').includes(`(choices: ${allowed.map((r) => `"${r}"`).join(', ')}`),
        help.stdout,
      );
      const refused = await cli('accounts', verb, 'acct_x', '--reason', foreign);
      assert.equal(refused.code, 64, refused.stderr);
      assert.ok(refused.stderr.includes(`'${foreign}' is invalid. Allowed choices are ${allowed.join(', ')}.`));
    }
  });

  test('a key pasted into a usage error is not printed back', async () => {
    const key = generateKey('live');
    const result = await cli('keys', 'create', '--org', 'a', '--mode', key);
    assert.equal(result.code, 64);
    assert.ok(!result.stderr.includes(key.slice(8)), result.stderr);
  });

  test('a database that cannot be reached: exit 69 (EX_UNAVAILABLE), one line', async () => {
    const result = await run(['src/cli/main.ts', 'migrate'], {
      DATABASE_URL: 'postgres://postgres:postgres@127.0.0.1:1/none',
      SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
    });
    assert.equal(result.code, 69, result.stderr);
    assert.match(result.stderr, /^plinth: the database is unavailable: [^\n]*ECONNREFUSED[^\n]*\n$/);
  });
});
