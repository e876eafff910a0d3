import { type Command, InvalidArgumentError, Option } from 'commander';
import { type KeyPermissions, LEVELS, PERMISSION_GROUPS, parsePermissions } from '../platform/auth/permissions.ts';
import type { Mode } from '../platform/auth/principal.ts';
import { cleanText, cleanTextRule } from '../platform/kit/text.ts';

const MODES: readonly Mode[] = ['sandbox', 'live'];
const ORG_HELP = 'an org id (org_…), or the name given to keys create or at sign-up';
/** What the commands do, loaded only when one runs: `--help` and a usage error need none of it. */
const load = () => import('./keys-run.ts');

/** `keys create|list|revoke`: the operator's keys, whichever org they belong to. */
export function registerKeys(program: Command): void {
  const keys = program.command('keys').description("create, list and revoke any org's API keys");
  keys
    .command('create')
    .description('print a new key (and create an org of that name if there is none); the secret is shown once')
    .requiredOption('--org <org>', ORG_HELP)
    .addOption(new Option('--mode <mode>', "the key's mode").choices(MODES).makeOptionMandatory())
    .option('--name <name>', 'a label for the key (1–100 characters), shown by keys list and the dashboard', nameFlag)
    .option('--json', 'print {id, key, name, org_id, mode, permissions} instead of the key alone')
    .option('--permissions <grants>', 'a restricted key (rk_…): e.g. accounts=read,transactions=read', permissionsFlag)
    .action((flags: { org: string; mode: Mode; json?: true; permissions?: KeyPermissions; name?: string }) =>
      load().then((run) => run.createKey(flags)),
    );
  keys
    .command('list')
    .description("the org's keys as JSON lines, never their secrets")
    .requiredOption('--org <org>', ORG_HELP)
    .action((flags: { org: string }) => load().then((run) => run.listKeys(flags.org)));
  keys
    .command('revoke')
    .description('revoke a key, named by its id or by the key itself; revoking twice is harmless')
    .argument('<key>', 'the key id (key_…), or the key (sk_…, rk_…) if that is what you have')
    .action((key: string) => load().then((run) => run.revokeKey(key)));
}

/** A key's name, by the API's rule for `name` (POST /v1/api_keys). */
function nameFlag(value: string): string {
  const name = cleanText(value, 100);
  if (name === null) throw new InvalidArgumentError(cleanTextRule('the name', 100));
  return name;
}

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
