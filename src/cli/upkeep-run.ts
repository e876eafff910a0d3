import { SEALED_COLUMNS } from '../modules.ts';
import { forgetOtherKeys, requireSecretsKey } from '../platform/secrets/key-check.ts';
import { secretBoxFor } from '../platform/secrets/key-source.ts';
import { resealAll } from '../platform/secrets/rotate.ts';
import { withDatabase } from './context.ts';

/** `secrets rotate`: re-seals every sealed column of every product under SECRETS_KEY; prints the counts per column. */
export function rotate(): Promise<void> {
  return withDatabase(async (database, config) => {
    const box = secretBoxFor(config);
    // Re-sealing under a key set that cannot open what is there would fail half-way: refused first, as at start-up.
    await requireSecretsKey(database, box, SEALED_COLUMNS, config);
    const counts = await resealAll(database, box, SEALED_COLUMNS);
    await forgetOtherKeys(database, box);
    process.stdout.write(`${JSON.stringify(counts)}\n`);
  });
}

/** `migrate`: every command migrates first, so this one only says so. */
export function migrate(): Promise<void> {
  return withDatabase(async () => void process.stderr.write('migrations are up to date\n'));
}
