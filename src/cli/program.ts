import { Command, Help } from 'commander';
import { registerAudit } from './audit.ts';
import { registerBankAchExport } from './bank.ts';
import { registerBankStatements } from './bank-statements.ts';
import { EXIT, Failure } from './exits.ts';
import { registerFintech } from './fintech.ts';
import { registerKeys } from './keys.ts';
import { registerUpkeep } from './upkeep.ts';

/** How the README runs it: what every usage line starts with. */
export const PROGRAM = 'npm run --silent cli --';

/** The command tree: every command and subcommand with its `--help` (docs/api.md#operator-cli). */
export function buildProgram(writeErr: (text: string) => void): Command {
  const program = new Command(PROGRAM)
    .description('Plinth operator commands: they act on the database directly, as the operator')
    .helpCommand(true)
    .exitOverride()
    .configureOutput({ writeErr, outputError: (text, write) => write(`plinth: ${text.replace(/^error: /, '')}`) })
    .configureHelp({
      visibleCommands: leafCommands,
      subcommandTerm: (cmd) => `${cmd.parent ? pathOf(cmd) : cmd.name()} ${usageOf(cmd)}`.trim(),
    });
  registerKeys(program);
  registerUpkeep(program);
  registerFintech(program);
  registerBankAchExport(program);
  registerBankStatements(program);
  registerAudit(program);
  // The live event stream's `listen` (docs/api.md#operator-cli): src/cli/listen.ts, loaded only when it runs.
  program
    .command('listen')
    .description('print live events as they happen, and forward them signed to a local URL')
    .option('--api <url>', "the server's base URL (default: PLINTH_API_BASE, else http://127.0.0.1:8080)")
    .option('--key <key>', 'the API key (default: PLINTH_API_KEY, which other users of the machine cannot see)')
    .option('--types <types>', 'only these event types, comma-separated')
    .option('--forward-to <url>', 'POST each event, signed as a webhook, to this URL')
    .action(async (options: { api?: string; key?: string; types?: string; forwardTo?: string }) => {
      const api = options.api ?? (process.env.PLINTH_API_BASE || 'http://127.0.0.1:8080');
      const key = options.key ?? process.env.PLINTH_API_KEY;
      if (key === undefined || key === '')
        throw new Failure('listen needs a key: set PLINTH_API_KEY (or give --key <key>)', EXIT.usage);
      const { listen, forwardTimeoutSeconds } = await import('./listen.ts');
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
      const types = options.types?.split(',').filter((t) => t !== '');
      const code = await listen({
        api,
        key,
        timeoutSeconds: forwardTimeoutSeconds(process.env),
        signal: stop.signal,
        ...(types === undefined ? {} : { types }),
        ...(options.forwardTo === undefined ? {} : { forwardTo: options.forwardTo }),
      });
      if (code !== EXIT.ok) throw new Failure('', code);
    });
  for (const command of walk(program)) finish(command);
  return program;
}

/** Every command, depth first. */
function* walk(command: Command): Generator<Command> {
  yield command;
  for (const sub of command.commands) yield* walk(sub);
}

/** Each error ends with the command's usage line; a command that only groups others names the missing one. */
function finish(command: Command): void {
  const usage = `${command.createHelp().commandUsage(command)}`;
  command.showHelpAfterError(`usage: ${usage}\n(add --help for more)`);
  if (command.commands.length === 0) return;
  const names = command.commands.map((c) => c.name());
  const path = pathOf(command);
  const choice = `${names.length === 1 ? '' : 'one of '}${names.join(', ')}`;
  command.allowExcessArguments().action(() => {
    const [given] = command.args;
    const message =
      given === undefined
        ? `missing command${path === '' ? '' : ` after '${path}'`}: ${choice}`
        : `unknown command '${[path, given].join(' ').trim()}'; ${path === '' ? 'the commands are' : `'${path}' takes`} ${names.join(', ')}`;
    command.error(message, { exitCode: EXIT.usage, code: 'plinth.command' });
  });
}

/** `keys create`: the names from the root's first command down. */
function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** A command's options and arguments, as its usage line shows them. */
function usageOf(command: Command): string {
  return command.commands.length > 0 ? '' : command.usage();
}

/** The help's command list goes down to the commands that act: `cli --help` lists every one. */
function leafCommands(this: Help, command: Command): Command[] {
  return Help.prototype.visibleCommands
    .call(this, command)
    .flatMap((c) => (c.commands.length === 0 ? [c] : leafCommands.call(this, c)));
}
