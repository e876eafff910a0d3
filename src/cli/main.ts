import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { ALL_MIGRATIONS } from '../migrations.ts';
import { createKeyForOrgName, listKeysForOrgName, revokeKeyById } from '../platform/keys/api-keys.service.ts';
import { apiKeyFromRow } from '../platform/keys/api-keys.view.ts';
import { systemClock } from '../platform/kit/time.ts';
import { secretBoxFor } from '../platform/secrets/key-source.ts';
import { resealAll } from '../platform/secrets/rotate.ts';
import { eventsWithDeliveries } from '../platform/webhooks/fan-out.ts';
import { WEBHOOK_SECRET_COLUMN } from '../platform/webhooks/signing-secrets.ts';
import { PRODUCTS } from '../products.ts';
import { accountsCommand, CliUsageError, FINTECH_USAGE, ledgerVerify } from './fintech.ts';

const USAGE = `usage: npm run --silent cli -- <command>
  keys create --org <name> --mode sandbox|live [--json]   print a new key (creates the org if needed)
  keys list --org <name>                                  the org's keys as JSON lines, never their secrets
  keys revoke <key id>                                    revoke a key; revoking twice is harmless
  secrets rotate                                          re-seal secrets at rest under SECRETS_KEY
  migrate                                                 apply pending database migrations
${FINTECH_USAGE}
  --help                                                  this text`;

/** A command line that cannot be run: the message says what is wrong, the usage follows. */
class UsageError extends Error {}

const OPTIONS = {
  org: { type: 'string' },
  mode: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  reason: { type: 'string' },
  note: { type: 'string' },
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function needOrg(values: Values, command: string): string {
  if (!values.org) throw new UsageError(`${command} needs --org <name>`);
  return values.org;
}

async function keys(action: string | undefined, rest: string[], values: Values, database: Database): Promise<void> {
  const deps = {
    db: database.db,
    write: database.write,
    clock: systemClock,
    events: eventsWithDeliveries(systemClock),
  };
  if (action === 'create') {
    const org = needOrg(values, 'keys create');
    if (values.mode !== 'sandbox' && values.mode !== 'live')
      throw new UsageError(
        `keys create needs --mode sandbox or --mode live${values.mode ? `, not ${values.mode}` : ''}`,
      );
    const { row, key } = await createKeyForOrgName(deps, org, values.mode);
    const json = JSON.stringify({ id: row.id, key, org_id: row.org_id, mode: row.mode });
    process.stdout.write(values.json ? `${json}\n` : `${key}\n`);
  } else if (action === 'list') {
    const org = needOrg(values, 'keys list');
    const rows = await listKeysForOrgName(deps, org);
    if (rows === null) throw new Error(`no org named ${JSON.stringify(org)}`);
    for (const row of rows) process.stdout.write(`${JSON.stringify({ ...apiKeyFromRow(row), org_id: row.org_id })}\n`);
  } else if (action === 'revoke') {
    if (rest.length !== 1) throw new UsageError('keys revoke needs exactly one key id, e.g. keys revoke key_…');
    const row = await revokeKeyById(deps, rest[0]!);
    if (row === null) throw new Error(`no key with id ${JSON.stringify(rest[0])}`);
    process.stdout.write(`${JSON.stringify({ ...apiKeyFromRow(row), org_id: row.org_id })}\n`);
  } else {
    throw new UsageError(action ? `unknown keys command "${action}"` : 'keys needs a command: create, list or revoke');
  }
}

/** Re-seals every sealed column of every product under SECRETS_KEY; prints how many values changed, per column. */
async function rotateSecrets(config: Config, database: Database): Promise<void> {
  const columns = [...PRODUCTS.flatMap((p) => p.sealedColumns ?? []), WEBHOOK_SECRET_COLUMN];
  const counts = await resealAll(database, secretBoxFor(config), columns);
  process.stdout.write(`${JSON.stringify(counts)}\n`);
}

/** Runs one command; resolves to its exit code. */
async function run(argv: string[], config: Config, database: Database): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const [group, action, ...rest] = positionals;
  if (group === undefined) throw new UsageError('no command given');
  await database.migrate(ALL_MIGRATIONS);
  if (group === 'migrate' && action === undefined) process.stderr.write('migrations are up to date\n');
  else if (group === 'keys') await keys(action, rest, values, database);
  else if (group === 'secrets' && action === 'rotate' && rest.length === 0) await rotateSecrets(config, database);
  else if (group === 'accounts') await accountsCommand(database, positionals.slice(1), values);
  else if (group === 'ledger' && action === 'verify' && rest.length === 0)
    return (await ledgerVerify(database)) ? 0 : 1;
  else throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let config: Config;
  let database: Database;
  try {
    config = loadConfig();
    database = openDatabase(config.DATABASE_URL);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`plinth: bad configuration: ${error.message}\n`);
    return 2;
  }
  try {
    return await run(argv, config, database);
  } catch (error) {
    const parse = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (error instanceof UsageError || error instanceof CliUsageError || parse) {
      const message = (error as Error).message || 'that command needs other arguments';
      process.stderr.write(`plinth: ${message}\n${USAGE}\n`);
      return 64;
    }
    process.stderr.write(`plinth: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
