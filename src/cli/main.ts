import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/database.ts';
import { ALL_MIGRATIONS } from '../migrations.ts';
import { createKeyForOrgName, listKeysForOrgName, revokeKeyById } from '../platform/keys/api-keys.service.ts';
import { apiKeyFromRow } from '../platform/keys/api-keys.view.ts';
import { systemClock } from '../platform/kit/time.ts';
import { accountsCommand, CliUsageError, FINTECH_USAGE, ledgerVerify } from './fintech.ts';

const USAGE = `usage: npm run --silent cli -- <command>
  keys create --org <name> --mode sandbox|live [--json]   print a new key (creates the org if needed)
  keys list --org <name>                                  the org's keys as JSON lines, never their secrets
  keys revoke <key id>                                    revoke a key; revoking twice is harmless
  migrate                                                 apply pending database migrations
${FINTECH_USAGE}`;

class UsageError extends Error {}

/** Runs one command; resolves to its exit code. */
async function run(argv: string[], database: Database): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      mode: { type: 'string' },
      json: { type: 'boolean', default: false },
      reason: { type: 'string' },
      note: { type: 'string' },
    },
  });
  const deps = { db: database.db, write: database.write, clock: systemClock };
  const [group, action, ...rest] = positionals;
  await database.migrate(ALL_MIGRATIONS);
  if (group === 'migrate' && action === undefined) {
    process.stderr.write('migrations are up to date\n');
    return 0;
  }
  if (group === 'accounts') {
    await accountsCommand(database, positionals.slice(1), values);
    return 0;
  }
  if (group === 'ledger' && action === 'verify' && rest.length === 0) return (await ledgerVerify(database)) ? 0 : 1;
  if (group !== 'keys') throw new UsageError();
  if (action === 'create') {
    if (!values.org || (values.mode !== 'sandbox' && values.mode !== 'live')) throw new UsageError();
    const { row, key } = await createKeyForOrgName(deps, values.org, values.mode);
    process.stdout.write(
      values.json ? `${JSON.stringify({ id: row.id, key, org_id: row.org_id, mode: row.mode })}\n` : `${key}\n`,
    );
  } else if (action === 'list') {
    if (!values.org) throw new UsageError();
    const rows = await listKeysForOrgName(deps, values.org);
    if (rows === null) throw new Error(`no org named ${JSON.stringify(values.org)}`);
    for (const row of rows) process.stdout.write(`${JSON.stringify({ ...apiKeyFromRow(row), org_id: row.org_id })}\n`);
  } else if (action === 'revoke' && rest.length === 1) {
    const row = await revokeKeyById(deps, rest[0]!);
    if (row === null) throw new Error(`no key with id ${JSON.stringify(rest[0])}`);
    process.stdout.write(`${JSON.stringify({ ...apiKeyFromRow(row), org_id: row.org_id })}\n`);
  } else {
    throw new UsageError();
  }
  return 0;
}

async function main(): Promise<number> {
  let database: Database;
  try {
    database = openDatabase(loadConfig().DATABASE_URL);
  } catch (error) {
    if (error instanceof ConfigError) process.stderr.write(`plinth: bad configuration: ${error.message}\n`);
    else throw error;
    return 2;
  }
  try {
    return await run(process.argv.slice(2), database);
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof CliUsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`${USAGE}\n`);
      return 64;
    }
    process.stderr.write(`plinth: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

process.exitCode = await main();
