import type { Command } from 'commander';

/** What the commands do, loaded only when one runs. */
const load = () => import('./upkeep-run.ts');

/** `secrets rotate` and `migrate`: the database's own upkeep. */
export function registerUpkeep(program: Command): void {
  program
    .command('secrets')
    .description('the secrets sealed at rest')
    .command('rotate')
    .description('re-seal every secret at rest under SECRETS_KEY; prints how many values changed, per column')
    .action(() => load().then((run) => run.rotate()));
  program
    .command('migrate')
    .description('apply pending database migrations (every command does so first)')
    .action(() => load().then((run) => run.migrate()));
}
