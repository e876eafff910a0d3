import type { Command } from 'commander';

/** What the commands do, loaded only when one runs. */
const load = () => import('./bank-run.ts');

/** The `bank` command group (created by whichever bank command registers first), and its `ach-export`. */
export function registerBankAchExport(program: Command): void {
  const bank =
    program.commands.find((c) => c.name() === 'bank') ??
    program.command('bank').description("the live money path: the operator's bank files");
  bank
    .command('ach-export')
    .description(
      'put every live ACH payment waiting for submission into one NACHA file in DIR and mark them submitted; ' +
        'nothing waiting: no file, exit 0 (docs/deploy.md, "Live money: the bank files")',
    )
    .requiredOption('--out <dir>', 'the directory the file is written to (it must exist)')
    .action((flags: { out: string }) => load().then((run) => run.achExport(flags.out)));
}
