import { type Command, Option } from 'commander';

/** What the commands do, loaded only when one runs. */
const load = () => import('./bank-statements-run.ts');

/** The `bank` command, made by whichever of the bank's registrations runs first (the export's or this one). */
export function bankCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'bank') ??
    program.command('bank').description("the live money path: the omnibus account's bank files")
  );
}

/**
 * `bank import|exceptions|resolve|reconcile`: the bank's statements in, matched to payments, and the balance proof
 * (docs/deploy.md, "Statements in").
 */
export function registerBankStatements(program: Command): void {
  const bank = bankCommand(program);
  bank
    .command('import')
    .description("store and match one day's statement of the omnibus account (camt.053, BAI2 or CSV)")
    .argument('<file>', 'the statement file')
    .addOption(
      new Option('--format <format>', 'the file format (default: from its first bytes)').choices([
        'camt053',
        'bai2',
        'csv',
      ]),
    )
    .option('--map <columns>', 'CSV only: field=Header pairs, comma-separated, for headers not named as the fields')
    .option('--json', 'print the result as JSON')
    .action((file: string, flags: { format?: 'camt053' | 'bai2' | 'csv'; map?: string; json?: boolean }) =>
      load().then((run) => run.importFile(file, flags)),
    );
  bank
    .command('exceptions')
    .description('list the statement lines no rule matched, open ones (with --all, resolved ones too)')
    .option('--all', 'resolved and ignored ones too')
    .option('--json', 'print them as JSON')
    .action((flags: { all?: boolean; json?: boolean }) => load().then((run) => run.exceptions(flags)));
  bank
    .command('resolve')
    .description('resolve an exception: credit the line to an account, or ignore it with a note')
    .argument('<line>', 'the line id (bsl_…)')
    .option('--account <id>', 'credit the line to this live account (acct_…) as an inbound payment')
    .option('--ignore', 'close it, moving nothing (a --note says why)')
    .option('--note <text>', 'kept with the resolution')
    .action((line: string, flags: { account?: string; ignore?: boolean; note?: string }) =>
      load().then((run) => run.resolve(line, flags)),
    );
  bank
    .command('reconcile')
    .description("the balance proof: the bank's closing balance that day against the ledger's, open exceptions between")
    .requiredOption('--date <date>', 'the statement day, YYYY-MM-DD')
    .option('--json', 'print the proof as JSON')
    .action((flags: { date: string; json?: boolean }) => load().then((run) => run.reconcile(flags)));
}
