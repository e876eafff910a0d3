import { CommanderError } from 'commander';
import { redactSecrets } from '../platform/kit/redact.ts';
import { registerProducts } from '../products.ts';
import { exitCodeOf, messageOf } from './exits.ts';
import { buildProgram } from './program.ts';

/** Runs one command line; resolves to its exit code (docs/api.md#exit-codes). */
async function main(argv: string[]): Promise<number> {
  // The error catalogue and the secret shapes: a key pasted into any argument is redacted from every message.
  registerProducts();
  try {
    await buildProgram().parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    const code = exitCodeOf(error);
    // Commander has printed its own errors and the help; every other message is one redacted line.
    const message = error instanceof CommanderError ? '' : messageOf(error);
    if (message !== '') process.stderr.write(`plinth: ${redactSecrets(message)}\n`);
    return code;
  }
}

// `cli keys list … | head -2`: the reader may exit before all is printed. The command still runs to its end and
// exits with its own code; what it would have printed goes nowhere, without a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
process.exitCode = await main(process.argv.slice(2));
