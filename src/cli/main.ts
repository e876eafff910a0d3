import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { openDatabase } from '../db/open.ts';
import { ALL_MIGRATIONS, SEALED_COLUMNS } from '../migrations.ts';
import { keyHint, parseKey } from '../platform/auth/key-format.ts';
import { type KeyPermissions, LEVELS, PERMISSION_GROUPS, parsePermissions } from '../platform/auth/permissions.ts';
import type { Mode } from '../platform/auth/principal.ts';
import type { OrgsTable } from '../platform/auth/tables.ts';
import {
  createKeyForOrgName,
  findKeyBySecret,
  findOrgForOperator,
  listKeysOfOrg,
  revokeKeyById,
} from '../platform/keys/api-keys.operator.ts';
import type { KeysDeps } from '../platform/keys/api-keys.service.ts';
import { apiKeyFromRow } from '../platform/keys/api-keys.view.ts';
import { redactSecrets } from '../platform/kit/redact.ts';
import { systemClock } from '../platform/kit/time.ts';
import { forgetOtherKeys, requireSecretsKey } from '../platform/secrets/key-check.ts';
import { secretBoxFor } from '../platform/secrets/key-source.ts';
import { resealAll } from '../platform/secrets/rotate.ts';
import { eventsWithDeliveries } from '../platform/webhooks/fan-out.ts';
import { registerProducts } from '../products.ts';
import { accountsCommand, CliUsageError, FINTECH_USAGE, ledgerVerify } from './fintech.ts';
import { listen } from './listen.ts';

const USAGE = `usage: npm run --silent cli -- <command>
  keys create --org <org> --mode sandbox|live [--json] [--permissions accounts=read,transactions=read]
                                                          print a new key (creates an org of that name if needed);
                                                          with --permissions, a restricted key (rk_…)
  keys list --org <org>                                   the org's keys as JSON lines, never their secrets
  keys revoke <key id>                                    revoke a key; revoking twice is harmless
  secrets rotate                                          re-seal secrets at rest under SECRETS_KEY
  migrate                                                 apply pending database migrations
  listen --api <url> --key <key> [--types a,b] [--forward-to <url>]
                                                          print the live events (GET /v1/events/stream); with
                                                          --forward-to, POST each one there, signed
${FINTECH_USAGE}
  --help                                                  this text
<org> is an org id (org_…) or an org's name: the one given to keys create, or at sign-up.`;

/** A command line that cannot be run: the message says what is wrong, the usage follows. */
class UsageError extends Error {}

const OPTIONS = {
  org: { type: 'string' },
  mode: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  reason: { type: 'string' },
  note: { type: 'string' },
  permissions: { type: 'string' },
} as const;
type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function needOrg(values: Values, command: string): string {
  if (!values.org) throw new UsageError(`${command} needs --org <org id or name>`);
  return values.org;
}

const ORG_FORMS =
  '--org takes an org id (org_…): the org_id of the sign-up answer or of keys create --json; or the name given to ' +
  'keys create or at sign-up';

/** The org `--org` names for reading: its id or name, else the one org signed up under that display name. */
async function orgToRead(deps: KeysDeps, ref: string): Promise<OrgsTable> {
  const { org, signedUpAs } = await findOrgForOperator(deps, ref);
  if (org !== undefined) return org;
  if (signedUpAs.length === 1) return signedUpAs[0]!;
  if (signedUpAs.length > 1)
    throw new Error(`several orgs signed up as ${JSON.stringify(ref)} (${ids(signedUpAs)}): give --org <org id>`);
  throw new Error(`no org named ${JSON.stringify(ref)}; ${ORG_FORMS}`);
}

const ids = (orgs: OrgsTable[]) => orgs.map((o) => o.id).join(', ');

/** `accounts=read,transactions=read` as a restricted key's permissions, every group listed (others `none`). */
function permissionsFlag(value: string | undefined): KeyPermissions | null {
  if (value === undefined) return null;
  const given: Record<string, string> = {};
  for (const pair of value.split(',').filter((p) => p.trim() !== '')) {
    const [group = '', level = ''] = pair.split('=').map((s) => s.trim());
    if (!(PERMISSION_GROUPS as readonly string[]).includes(group))
      throw new UsageError(
        `--permissions: no group ${JSON.stringify(group)}; the groups are ${PERMISSION_GROUPS.join(', ')}`,
      );
    if (!(LEVELS as readonly string[]).includes(level))
      throw new UsageError(`--permissions: ${group} takes none, read or write, not ${JSON.stringify(level)}`);
    given[group] = level;
  }
  return parsePermissions(JSON.stringify(given));
}

async function createKey(
  deps: KeysDeps,
  ref: string,
  mode: Mode,
  json: boolean,
  permissions: KeyPermissions | null,
): Promise<void> {
  // A new name that is also a sign-up's display name makes a new org (names are the operator's, display names
  // anyone's): said on stderr, with the id to use for the sign-up's org instead.
  const { org, signedUpAs } = await findOrgForOperator(deps, ref);
  const created = await createKeyForOrgName(deps, ref, mode, permissions);
  if (created === null) throw new Error(`no org with id ${ref}; ${ORG_FORMS}`);
  const { row, key } = created;
  if (org === undefined && signedUpAs.length > 0)
    process.stderr.write(
      `plinth: created a new org named ${JSON.stringify(ref)} (${row.org_id}); the org signed up as ` +
        `${JSON.stringify(ref)} is ${ids(signedUpAs)}: to add a key to it instead, use --org ${signedUpAs[0]!.id}\n`,
    );
  const line = JSON.stringify({ id: row.id, key, org_id: row.org_id, mode: row.mode, permissions });
  process.stdout.write(json ? `${line}\n` : `${key}\n`);
}

/** `keys revoke <key id>`; given the key itself, says so, shows only its hint and the id to give instead. */
async function revokeKey(deps: KeysDeps, id: string): Promise<void> {
  if (parseKey(id) !== null) {
    const found = await findKeyBySecret(deps, id);
    throw new UsageError(
      `keys revoke takes a key id (key_…), not the key itself; ${keyHint(id)} ` +
        (found === undefined ? 'is no key of this database' : `is ${found.id}: run keys revoke ${found.id}`),
    );
  }
  const row = await revokeKeyById(deps, id);
  if (row === null) throw new Error(`no key with id ${JSON.stringify(id)}; keys list --org <org> shows the ids`);
  process.stdout.write(`${JSON.stringify({ ...apiKeyFromRow(row), org_id: row.org_id })}\n`);
}

async function keys(action: string | undefined, rest: string[], values: Values, database: Database): Promise<void> {
  const deps = {
    db: database.db,
    write: database.write,
    clock: systemClock,
    events: eventsWithDeliveries(),
  };
  if (action === 'create') {
    const org = needOrg(values, 'keys create');
    if (values.mode !== 'sandbox' && values.mode !== 'live')
      throw new UsageError(
        `keys create needs --mode sandbox or --mode live${values.mode ? `, not ${values.mode}` : ''}`,
      );
    await createKey(deps, org, values.mode, values.json, permissionsFlag(values.permissions));
  } else if (action === 'list') {
    const org = await orgToRead(deps, needOrg(values, 'keys list'));
    for (const row of await listKeysOfOrg(deps, org.id))
      process.stdout.write(`${JSON.stringify({ ...apiKeyFromRow(row), org_id: row.org_id })}\n`);
  } else if (action === 'revoke') {
    if (rest.length !== 1) throw new UsageError('keys revoke needs exactly one key id, e.g. keys revoke key_…');
    await revokeKey(deps, rest[0]!);
  } else {
    throw new UsageError(action ? `unknown keys command "${action}"` : 'keys needs a command: create, list or revoke');
  }
}

/** Re-seals every sealed column of every product under SECRETS_KEY; prints how many values changed, per column. */
async function rotateSecrets(config: Config, database: Database): Promise<void> {
  const box = secretBoxFor(config);
  // Re-sealing under a key set that cannot open what is there would fail half-way: refused first, as at start-up.
  await requireSecretsKey(database, box, SEALED_COLUMNS, config);
  const counts = await resealAll(database, box, SEALED_COLUMNS);
  await forgetOtherKeys(database, box);
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

/** `listen` talks to a server's API, not to the database: no configuration needed. Ctrl-C or SIGTERM stops it. */
async function listenCommand(argv: string[]): Promise<number> {
  const options = { api: { type: 'string' }, key: { type: 'string' }, types: { type: 'string' } } as const;
  let values: { api?: string; key?: string; types?: string; 'forward-to'?: string };
  try {
    ({ values } = parseArgs({ args: argv, options: { ...options, 'forward-to': { type: 'string' } } }));
    if (!values.api || !values.key) throw new UsageError('listen needs --api <base url> and --key <key>');
  } catch (error) {
    process.stderr.write(`plinth: ${redactSecrets((error as Error).message)}\n${USAGE}\n`);
    return 64;
  }
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
  const types = values.types?.split(',').filter((t) => t !== '');
  return listen({ api: values.api, key: values.key, types, forwardTo: values['forward-to'], signal: stop.signal });
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (argv[0] === 'listen') return listenCommand(argv.slice(1));
  registerProducts();
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
      process.stderr.write(`plinth: ${redactSecrets(message)}\n${USAGE}\n`);
      return 64;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`plinth: bad configuration: ${error.message}\n`);
      return 2;
    }
    // A key pasted into the wrong argument is not printed back (whatever the message that names the argument).
    process.stderr.write(`plinth: ${redactSecrets(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  } finally {
    await database.close();
  }
}

// `cli keys list … | head -2`: the reader may exit before all is printed. The command still runs to its end and
// exits with its own code; what it would have printed goes nowhere, without a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
process.exitCode = await main(process.argv.slice(2));
