import { CommanderError } from 'commander';
import { redactSecrets } from '../platform/kit/redact.ts';
import { exitCodeOf, messageOf } from './exits.ts';
import { buildProgram } from './program.ts';

/** Runs one command line; resolves to its exit code (docs/api.md#exit-codes). */
async function main(argv: string[]): Promise<number> {
  // What the parser says on stderr is held until the secret shapes are known, then redacted: a key pasted into any
  // argument is never printed back.
  const said: string[] = [];
  try {
    await buildProgram((text) => said.push(text)).parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    const message = error instanceof CommanderError ? '' : messageOf(error);
    if (message !== '') said.push(`plinth: ${message}\n`);
    if (said.length > 0) {
      // Every product's secret shapes (and error catalogue), loaded only now: `--help` needs none of them.
      (await import('../modules.ts')).registerModules();
      process.stderr.write(redactSecrets(said.join('')));
    }
    return exitCodeOf(error);
  }
}

// `cli keys list … | head -2`: the reader may exit before all is printed. The command still runs to its end and
// exits with its own code; what it would have printed goes nowhere, without a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
process.exitCode = await main(process.argv.slice(2));
