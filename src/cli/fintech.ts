import { type Command, Option } from 'commander';
import { CLOSE_REASONS, FREEZE_REASONS, NOTE_MAX } from '../products/fintech/lifecycle.schema.ts';

/** What the commands do, loaded only when one runs. */
const load = () => import('./fintech-run.ts');

interface Flags {
  reason?: string;
  note?: string;
}

const NOTE = `kept with the change: 1–${NOTE_MAX} characters, as the API's note`;

/**
 * `accounts freeze|unfreeze|close <id>` as the operator, and `ledger verify`. The reasons are the API's own lists
 * (lifecycle.schema.ts), so each command offers exactly what its endpoint takes (docs/api.md#operator-cli).
 */
export function registerFintech(program: Command): void {
  const accounts = program.command('accounts').description("change any org's account's status, as the operator");
  accounts
    .command('freeze')
    .description('freeze as the operator (actor: operator): no API key can unfreeze it')
    .argument('<id>', 'the account id (acct_…)')
    .addOption(new Option('--reason <reason>', 'why').choices(FREEZE_REASONS).makeOptionMandatory())
    .option('--note <text>', NOTE)
    .action((id: string, flags: Flags) =>
      load().then((run) => run.lifecycle(id, { kind: 'freeze', reason: flags.reason!, note: flags.note })),
    );
  accounts
    .command('unfreeze')
    .description('unfreeze, whoever froze it (as the API, it takes no reason: the status details are cleared)')
    .argument('<id>', 'the account id (acct_…)')
    .action((id: string) => load().then((run) => run.lifecycle(id, { kind: 'unfreeze' })));
  accounts
    .command('close')
    .description('close: final, and both balances must be 0')
    .argument('<id>', 'the account id (acct_…)')
    .addOption(new Option('--reason <reason>', 'why').choices(CLOSE_REASONS).default('other'))
    .option('--note <text>', NOTE)
    .action((id: string, flags: Flags) =>
      load().then((run) => run.lifecycle(id, { kind: 'close', reason: flags.reason, note: flags.note })),
    );

  const ledger = program.command('ledger').description('the money core');
  ledger
    .command('verify')
    .description('check every ledger invariant, on one snapshot; exit 0 only if all hold')
    .action(() => load().then((run) => run.verify()));
}
