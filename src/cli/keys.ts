import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Database } from '../db/database.ts';
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
import { systemClock } from '../platform/kit/time.ts';
import { eventsWithDeliveries } from '../platform/webhooks/fan-out.ts';
import { withDatabase } from './context.ts';
import { Failure } from './exits.ts';

const MODES: readonly Mode[] = ['sandbox', 'live'];

const ORG_FORMS =
  '--org takes an org id (org_…): the org_id of the sign-up answer or of keys create --json; or the name given to ' +
  'keys create or at sign-up';
const ORG_HELP = 'an org id (org_…), or the name given to keys create or at sign-up';

/** `keys create|list|revoke`: the operator's keys, whichever org they belong to. */
export function registerKeys(program: Command): void {
  const keys = program.command('keys').description("create, list and revoke any org's API keys");
  keys
    .command('create')
    .description('print a new key (and create an org of that name if there is none); the secret is shown once')
    .requiredOption('--org <org>', ORG_HELP)
    .addOption(new Option('--mode <mode>', "the key's mode").choices(MODES).makeOptionMandatory())
    .option('--json', 'print {id, key, org_id, mode, permissions} instead of the key alone')
    .option('--permissions <grants>', 'a restricted key (rk_…): e.g. accounts=read,transactions=read', permissionsFlag)
    .action((flags: { org: string; mode: Mode; json?: true; permissions?: KeyPermissions }) =>
      withDatabase((db) => createKey(depsOf(db), flags)),
    );
  keys
    .command('list')
    .description("the org's keys as JSON lines, never their secrets")
    .requiredOption('--org <org>', ORG_HELP)
    .action((flags: { org: string }) => withDatabase((db) => listKeys(depsOf(db), flags.org)));
  keys
    .command('revoke')
    .description('revoke a key, named by its id or by the key itself; revoking twice is harmless')
    .argument('<key>', 'the key id (key_…), or the key (sk_…, rk_…) if that is what you have')
    .action((key: string) => withDatabase((db) => revokeKey(depsOf(db), key)));
}

const depsOf = (database: Database): KeysDeps => ({
  db: database.db,
  write: database.write,
  clock: systemClock,
  events: eventsWithDeliveries(),
});

const ids = (orgs: OrgsTable[]) => orgs.map((o) => o.id).join(', ');

/** `accounts=read,transactions=read` as a restricted key's permissions, every group listed (others `none`). */
function permissionsFlag(value: string): KeyPermissions {
  const given: Record<string, string> = {};
  for (const pair of value.split(',').filter((p) => p.trim() !== '')) {
    const [group = '', level = ''] = pair.split('=').map((s) => s.trim());
    if (!(PERMISSION_GROUPS as readonly string[]).includes(group))
      throw new InvalidArgumentError(
        `no group ${JSON.stringify(group)}; the groups are ${PERMISSION_GROUPS.join(', ')}`,
      );
    if (!(LEVELS as readonly string[]).includes(level))
      throw new InvalidArgumentError(`${group} takes ${LEVELS.join(', ')}, not ${JSON.stringify(level)}`);
    given[group] = level;
  }
  return parsePermissions(JSON.stringify(given))!;
}

async function createKey(
  deps: KeysDeps,
  flags: { org: string; mode: Mode; json?: true; permissions?: KeyPermissions },
): Promise<void> {
  const { org: ref, mode } = flags;
  const permissions = flags.permissions ?? null;
  // A new name that is also a sign-up's display name makes a new org (names are the operator's, display names
  // anyone's): said on stderr, with the id to use for the sign-up's org instead.
  const { org, signedUpAs } = await findOrgForOperator(deps, ref);
  const created = await createKeyForOrgName(deps, ref, mode, permissions);
  if (created === null) throw new Failure(`no org with id ${ref}; ${ORG_FORMS}`);
  const { row, key } = created;
  if (org === undefined && signedUpAs.length > 0)
    process.stderr.write(
      `plinth: created a new org named ${JSON.stringify(ref)} (${row.org_id}); the org signed up as ` +
        `${JSON.stringify(ref)} is ${ids(signedUpAs)}: to add a key to it instead, use --org ${signedUpAs[0]!.id}\n`,
    );
  const line = JSON.stringify({ id: row.id, key, org_id: row.org_id, mode: row.mode, permissions });
  process.stdout.write(flags.json ? `${line}\n` : `${key}\n`);
}

/** The org `--org` names for reading: its id or name, else the one org signed up under that display name. */
async function listKeys(deps: KeysDeps, ref: string): Promise<void> {
  const { org, signedUpAs } = await findOrgForOperator(deps, ref);
  if (org === undefined && signedUpAs.length > 1)
    throw new Failure(`several orgs signed up as ${JSON.stringify(ref)} (${ids(signedUpAs)}): give --org <org id>`);
  const found = org ?? signedUpAs[0];
  if (found === undefined) throw new Failure(`no org named ${JSON.stringify(ref)}; ${ORG_FORMS}`);
  for (const row of await listKeysOfOrg(deps, found.id))
    process.stdout.write(`${JSON.stringify({ ...apiKeyFromRow(row), org_id: row.org_id })}\n`);
}

/** `keys revoke <key>`: by id, or by the key itself (found by its hash; never printed back, only its hint). */
async function revokeKey(deps: KeysDeps, given: string): Promise<void> {
  let id = given;
  if (parseKey(given) !== null) {
    const found = await findKeyBySecret(deps, given);
    if (found === undefined) throw new Failure(`${keyHint(given)} is no key of this database`);
    id = found.id;
  }
  const row = await revokeKeyById(deps, id);
  if (row === null) throw new Failure(`no key with id ${JSON.stringify(id)}; keys list --org <org> shows the ids`);
  process.stdout.write(`${JSON.stringify({ ...apiKeyFromRow(row), org_id: row.org_id })}\n`);
}
