import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, SETTINGS } from '../src/config.ts';
import { defaultText } from '../src/platform/kit/settings.ts';
import { run } from './helpers/process.ts';

/** The configuration is read in process here: parsing needs no server, and a spawned process costs ~1 s. */
const CWD = '/srv/plinth';

function problem(env: Record<string, string>): string {
  try {
    loadConfig(env, CWD);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  assert.fail(`loadConfig accepted ${JSON.stringify(env)}`);
}

interface Row {
  variable: string;
  fallback: string;
  meaning: string;
}

/** The rows of the README's configuration table; `\|` inside a cell is a literal bar. */
function readmeRows(): Row[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.split('\n## Configuration\n')[1]?.split('\n## ')[0];
  assert.ok(section, 'the README has a "## Configuration" section');
  return section
    .split('\n')
    .filter((line) => /^\| `[A-Z0-9_]+` \|/.test(line))
    .map((line) => {
      const cells = line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replace(/\\\|/g, '|'));
      assert.equal(cells.length, 3, `three cells: ${line}`);
      return { variable: cells[0]!.replace(/`/g, ''), fallback: cells[1]!, meaning: cells[2]! };
    });
}

/** How the README shows a default: as typed in the environment, in code; an empty default is `unset`. */
function shownDefault(schema: (typeof SETTINGS.properties)[string]): string {
  const text = defaultText(schema);
  return text === '' ? 'unset' : `\`${text}\``;
}

describe("the README's configuration table is the settings schema", () => {
  const rows = readmeRows();
  const schema = SETTINGS.properties;

  test('it lists exactly the variables of the platform and every product, in the schema order', () => {
    assert.deepEqual(
      rows.map((r) => r.variable),
      Object.keys(schema),
    );
  });

  test("each row's default is the schema's default as typed in the environment", () => {
    for (const row of rows) {
      const property = schema[row.variable];
      if (property === undefined) continue; // reported by the test above
      assert.equal(row.fallback, shownDefault(property), row.variable);
    }
  });

  test("each row's meaning is the schema's description (which the row may continue)", () => {
    for (const row of rows) {
      const description = (schema[row.variable] as { description?: string } | undefined)?.description;
      if (description === undefined) continue;
      assert.ok(
        row.meaning.startsWith(description),
        `${row.variable}: the README says\n  ${row.meaning}\nthe schema says\n  ${description}`,
      );
    }
  });

  test('a setting with a closed list of values lists every one of them', () => {
    for (const row of rows) {
      const values = (schema[row.variable] as { enum?: string[] } | undefined)?.enum ?? [];
      for (const value of values) assert.ok(row.meaning.includes(`\`${value}\``), `${row.variable}: ${value}`);
    }
  });
});

describe('loadConfig', () => {
  test('an empty environment gives every default', () => {
    const config = loadConfig({}, CWD);
    assert.equal(config.HOST, '127.0.0.1');
    assert.equal(config.PORT, 8080);
    assert.equal(config.DATABASE_URL, 'sqlite:/srv/plinth/data/plinth.db', 'relative to the working directory');
    assert.equal(config.WEB_CONCURRENCY, 1);
    assert.equal(config.LOG_LEVEL, 'info');
    assert.equal(config.REDIS_URL, null);
    assert.equal(config.SANDBOX_SIGNUP, true);
    assert.equal(config.TRUST_PROXY, false);
    assert.equal(config.IDEMPOTENCY_TTL_HOURS, 24);
    assert.equal(config.SUPPORTED_COUNTRIES.size, 25);
    assert.ok(config.SUPPORTED_COUNTRIES.has('HR') && config.SUPPORTED_COUNTRIES.has('US'));
  });

  test('an empty variable is the same as an unset one', () => {
    assert.equal(loadConfig({ PORT: '', LOG_LEVEL: '' }, CWD).PORT, 8080);
  });

  test('values are parsed into their types', () => {
    const config = loadConfig(
      {
        PORT: '0',
        DATABASE_URL: 'postgres://plinth@db:5432/plinth',
        WEB_CONCURRENCY: '4',
        REDIS_URL: 'rediss://cache:6380',
        SANDBOX_SIGNUP: 'off',
        SUPPORTED_COUNTRIES: 'US, GB',
        LOG_LEVEL: 'silent',
        SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      },
      CWD,
    );
    assert.equal(config.PORT, 0);
    assert.equal(config.WEB_CONCURRENCY, 4, 'more than one worker with PostgreSQL');
    assert.equal(config.REDIS_URL, 'rediss://cache:6380');
    assert.equal(config.SANDBOX_SIGNUP, false);
    assert.deepEqual([...config.SUPPORTED_COUNTRIES], ['US', 'GB']);
    assert.equal(
      loadConfig({ DATABASE_URL: 'sqlite:/var/lib/plinth.db' }, CWD).DATABASE_URL,
      'sqlite:/var/lib/plinth.db',
    );
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:' }, CWD).DATABASE_URL, 'sqlite::memory:');
  });

  test('TRUST_PROXY takes a hop count or the proxies, and refuses true', () => {
    assert.equal(loadConfig({ TRUST_PROXY: '2' }, CWD).TRUST_PROXY, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }, CWD).TRUST_PROXY, [
      '10.0.0.1',
      '10.1.0.0/16',
    ]);
    assert.equal(loadConfig({ TRUST_PROXY: '0' }, CWD).TRUST_PROXY, false);
    assert.equal(
      problem({ TRUST_PROXY: 'true' }),
      'TRUST_PROXY: true would let any client choose its own address; list the proxies, or give a hop count',
    );
    assert.match(problem({ TRUST_PROXY: 'lb.internal' }), /^TRUST_PROXY: must be proxy addresses or CIDRs/);
  });

  test('a bad value is one line naming the variable and what is wrong', () => {
    assert.equal(problem({ PORT: 'abc' }), 'PORT: must be a whole number from 0 to 65535, got "abc"');
    assert.equal(problem({ PORT: '65536' }), 'PORT: must be a whole number from 0 to 65535, got "65536"');
    assert.equal(
      problem({ LOG_LEVEL: 'loud' }),
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
    assert.equal(problem({ SANDBOX_SIGNUP: 'maybe' }), 'SANDBOX_SIGNUP: must be on or off, got "maybe"');
    assert.equal(problem({ SUPPORTED_COUNTRIES: 'US,ZZ' }), 'SUPPORTED_COUNTRIES: not ISO 3166-1 alpha-2 codes: ZZ');
    assert.equal(
      problem({ IDEMPOTENCY_TTL_HOURS: '1' }),
      'IDEMPOTENCY_TTL_HOURS: must be a whole number from 24 to 8760, got "1"',
    );
    assert.equal(problem({ REDIS_URL: 'http://cache' }), 'REDIS_URL: must start with redis:// or rediss://');
    for (const [variable, value] of [
      ['PORT', 'eighty'],
      ['DATABASE_URL', 'mysql://x'],
      ['DATABASE_URL', 'sqlite:'],
      ['LOG_LEVEL', 'loud'],
      ['SUPPORTED_COUNTRIES', 'US,ZZ'],
      ['WEB_CONCURRENCY', '0'],
    ] as const) {
      const message = problem({ [variable]: value });
      assert.match(message, new RegExp(`^${variable}: `));
      assert.doesNotMatch(message, /\n/, 'one line');
    }
  });

  test('DATABASE_URL errors never echo the URL, which may hold a password', () => {
    const message = problem({ DATABASE_URL: 'postgres://plinth:hunter2@[db:5432/plinth' });
    assert.equal(message, 'DATABASE_URL: is not a valid postgres:// URL');
    assert.doesNotMatch(problem({ DATABASE_URL: 'mysql://plinth:hunter2@db/plinth' }), /hunter2/);
  });

  test('WEB_CONCURRENCY above 1 is refused with SQLite, which runs one server process', () => {
    assert.equal(
      problem({ WEB_CONCURRENCY: '2' }),
      'WEB_CONCURRENCY: SQLite mode runs one server process; use a postgres:// DATABASE_URL for more',
    );
  });

  test('WEBHOOK_WORKERS is 1 by default, and at least 1: some process must deliver (SQLite included)', () => {
    assert.equal(loadConfig({}, CWD).WEBHOOK_WORKERS, 1);
    assert.equal(loadConfig({ WEBHOOK_WORKERS: '3' }, CWD).WEBHOOK_WORKERS, 3);
    assert.match(problem({ WEBHOOK_WORKERS: '0' }), /^WEBHOOK_WORKERS: /);
    assert.match(problem({ WEBHOOK_WORKERS: 'two' }), /^WEBHOOK_WORKERS: /);
  });

  test('the server stops before it listens: exit code 2 and one line on stderr', async () => {
    const result = await run(['src/server.ts'], { PORT: 'eighty', DATABASE_URL: 'sqlite::memory:' });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(
      result.stderr,
      'plinth: bad configuration: PORT: must be a whole number from 0 to 65535, got "eighty"\n',
    );
    assert.equal(result.stdout, '');
  });
});
