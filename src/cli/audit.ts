import { type Command, Option } from 'commander';

/** What the commands do, loaded only when one runs. */
const load = () => import('./audit-run.ts');

/** `audit verify` and `audit rotate-key` (docs/api.md#verifying-the-history). */
export function registerAudit(program: Command): void {
  const audit = program.command('audit').description("check an org's event history; rotate the checkpoint key");
  audit
    .command('verify')
    .description(
      "recompute an org and mode's hash chain from the database: numbers without gaps, every kept body hashing to " +
        'its hash and naming the previous one, every ledger transaction agreeing with its event, and (given one) ' +
        'that the chain extends a checkpoint; exit 0, or 1 naming the first bad sequence',
    )
    .requiredOption('--org <org>', 'the org id (org_…), or the name given to keys create or at sign-up')
    .addOption(new Option('--mode <mode>', 'whose chain').choices(['sandbox', 'live']).makeOptionMandatory())
    .option('--checkpoint <file>', 'a checkpoint saved earlier (the JSON of GET /v1/audit/checkpoint, or its note)')
    .option('--json', 'print the result as JSON')
    .action((flags: { org: string; mode: 'sandbox' | 'live'; checkpoint?: string; json?: true }) =>
      load().then((run) => run.verify(flags)),
    );
  audit
    .command('rotate-key')
    .description(
      'retire the checkpoint key and make a new one (the old one stays listed by GET /v1/audit/public_key, so ' +
        'checkpoints it signed still verify); prints the new public key',
    )
    .action(() => load().then((run) => run.rotate()));
}
