import type { Database } from '../db/database.ts';
import {
  createKeyForOrgName,
  findKeyBySecret,
  findOrgForOperator,
  listKeysOfOrg,
  revokeKeyById,
} from '../modules/keys/api-keys.operator.ts';
import type { KeysDeps } from '../modules/keys/api-keys.service.ts';
import { apiKeyFromRow } from '../modules/keys/api-keys.view.ts';
import { eventRecorderOutsideTheApp } from '../modules.ts';
import { keyHint, parseKey } from '../platform/auth/key-format.ts';
import type { KeyPermissions } from '../platform/auth/permissions.ts';
import type { Mode } from '../platform/auth/principal.ts';
import type { OrgsTable } from '../platform/auth/tables.ts';
import { systemClock } from '../platform/kit/time.ts';
import { withDatabase } from './context.ts';
import { Failure } from './exits.ts';

/** What `keys create|list|revoke` do (src/cli/keys.ts parses them). */

const ORG_FORMS =
  '--org takes an org id (org_…): the org_id of the sign-up answer or of keys create --json; or the name given to ' +
  'keys create or at sign-up';

const depsOf = (database: Database): KeysDeps => ({
  db: database.db,
  write: database.write,
  clock: systemClock,
  events: eventRecorderOutsideTheApp(),
});

const ids = (orgs: OrgsTable[]) => orgs.map((o) => o.id).join(', ');

export function createKey(flags: {
  org: string;
  mode: Mode;
  json?: true;
  permissions?: KeyPermissions;
  name?: string;
}): Promise<void> {
  return withDatabase((database) => created(depsOf(database), flags));
}

async function created(
  deps: KeysDeps,
  flags: { org: string; mode: Mode; json?: true; permissions?: KeyPermissions; name?: string },
): Promise<void> {
  const { org: ref, mode } = flags;
  const name = flags.name ?? null;
  const permissions = flags.permissions ?? null;
  // A new name that is also a sign-up's display name makes a new org (names are the operator's, display names
  // anyone's): said on stderr, with the id to use for the sign-up's org instead.
  const { org, signedUpAs } = await findOrgForOperator(deps, ref);
  const created = await createKeyForOrgName(deps, ref, mode, permissions, name);
  if (created === null) throw new Failure(`no org with id ${ref}; ${ORG_FORMS}`);
  const { row, key } = created;
  if (org === undefined && signedUpAs.length > 0)
    process.stderr.write(
      `plinth: created a new org named ${JSON.stringify(ref)} (${row.org_id}); the org signed up as ` +
        `${JSON.stringify(ref)} is ${ids(signedUpAs)}: to add a key to it instead, use --org ${signedUpAs[0]!.id}\n`,
    );
  const line = JSON.stringify({ id: row.id, key, name, org_id: row.org_id, mode: row.mode, permissions });
  process.stdout.write(flags.json ? `${line}\n` : `${key}\n`);
}

export function listKeys(ref: string): Promise<void> {
  return withDatabase((database) => listed(depsOf(database), ref));
}

/** The org `--org` names for reading: its id or name, else the one org signed up under that display name. */
async function listed(deps: KeysDeps, ref: string): Promise<void> {
  const { org, signedUpAs } = await findOrgForOperator(deps, ref);
  if (org === undefined && signedUpAs.length > 1)
    throw new Failure(`several orgs signed up as ${JSON.stringify(ref)} (${ids(signedUpAs)}): give --org <org id>`);
  const found = org ?? signedUpAs[0];
  if (found === undefined) throw new Failure(`no org named ${JSON.stringify(ref)}; ${ORG_FORMS}`);
  for (const row of await listKeysOfOrg(deps, found.id))
    process.stdout.write(`${JSON.stringify({ ...apiKeyFromRow(row), org_id: row.org_id })}\n`);
}

/** `keys revoke <key>`: by id, or by the key itself (found by its hash; never printed back, only its hint). */
export function revokeKey(given: string): Promise<void> {
  return withDatabase((database) => revoked(depsOf(database), given));
}

async function revoked(deps: KeysDeps, given: string): Promise<void> {
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
