import { statSync } from 'node:fs';
import { eventRecorderOutsideTheApp } from '../modules.ts';
import { ownerNow } from '../platform/clock/clock.ts';
import { systemClock } from '../platform/kit/time.ts';
import { secretBoxFor } from '../platform/secrets/key-source.ts';
import { exportAch, missingBankSettings } from '../products/fintech/bank/ach-export.ts';
import { withDatabase } from './context.ts';
import { EXIT, Failure } from './exits.ts';

/** What `bank ach-export` does (src/cli/bank.ts parses it). */

/** Prints the file's record as one JSON line, or says nothing waits (stderr) and writes no file. */
export function achExport(out: string): Promise<void> {
  return withDatabase(async (database, config) => {
    const missing = missingBankSettings(config);
    if (missing.length > 0) throw new Failure(`bad configuration: ach-export needs ${missing.join(', ')}`, EXIT.config);
    let directory = false;
    try {
      directory = statSync(out).isDirectory();
    } catch {}
    if (!directory) throw new Failure(`--out must be an existing directory: ${out}`, EXIT.data);
    const deps = {
      db: database.db,
      clock: systemClock,
      now: ownerNow(systemClock),
      events: eventRecorderOutsideTheApp(),
      secrets: secretBoxFor(config),
    };
    const file = await exportAch(database, deps, config, out, systemClock());
    if (file === null) {
      process.stderr.write('ach-export: no live ACH payment waits for submission; no file written\n');
      return;
    }
    for (const id of file.skipped)
      process.stderr.write(`ach-export: ${id} left out: its amount is above what one NACHA entry carries\n`);
    process.stdout.write(`${JSON.stringify(file)}\n`);
  });
}
