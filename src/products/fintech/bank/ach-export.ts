import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Database, Trx } from '../../../db/database.ts';
import { syncDirectory, writeFileDurably } from '../../../platform/kit/durable-file.ts';
import { newId } from '../../../platform/kit/ids.ts';
import type { SecretBox } from '../../../platform/secrets/box.ts';
import { contextOf } from '../../../platform/secrets/rotate.ts';
import { SEALED_EXTERNAL_NUMBER } from '../external-accounts.service.ts';
import { submitByFile } from '../payments.steps.ts';
import type { MoneyDeps } from '../shared.ts';
import type { PaymentsTable } from '../tables.ts';
import { NACHA_MAX_AMOUNT, type NachaBatch, writeNacha } from './nacha.ts';
import { readNacha } from './nacha-read.ts';

/**
 * `bank ach-export` (docs/deploy.md, "Live money: the bank files"): every live ACH payment waiting for submission goes
 * into one NACHA file, one CCD batch per org, written durably and read back before anything is marked; then, in one
 * write with the file's `ach_files` row, each payment becomes `submitted` with its trace number.
 *
 * A file takes its final name only once that write has committed: it is written as `NAME.partial`, and renamed to
 * `NAME` after the commit. A run killed in between leaves a `.partial`, which the next run settles under the export's
 * turn (when no other export can be between its write and its commit): renamed when its `ach_files` row exists (the
 * commit happened), removed when not (its payments are still waiting and go into the new file). So a file without
 * `.partial` in the directory is always one whose payments are marked, and no payment is ever in two such files.
 */

export interface AchFilesTable {
  id: string;
  name: string;
  entry_count: number;
  debit_total: number | string | bigint;
  credit_total: number | string | bigint;
  sha256: string;
  created_at: string;
}

declare module '../../../db/tables.ts' {
  interface Tables {
    ach_files: AchFilesTable;
  }
}

export interface BankSettings {
  BANK_ROUTING_NUMBER: string | null;
  BANK_NAME: string;
  BANK_ORIGIN_ID: string;
}

export interface AchFile {
  id: string;
  name: string;
  path: string;
  entry_count: number;
  debit_total: number;
  credit_total: number;
  sha256: string;
  /** Payments left out: an amount above what one NACHA entry carries ($99,999,999.99). */
  skipped: string[];
}

/** The turn two exports (two processes) take in order: the second sees the first's payments submitted. */
const EXPORT_TURN = 'fintech.bank.ach_export';
const ID_MODIFIERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The settings the export needs, or the names of those missing. */
export function missingBankSettings(settings: BankSettings): string[] {
  const missing: string[] = [];
  if (settings.BANK_ROUTING_NUMBER === null) missing.push('BANK_ROUTING_NUMBER');
  if (settings.BANK_NAME.trim() === '') missing.push('BANK_NAME');
  if (settings.BANK_ORIGIN_ID.trim() === '') missing.push('BANK_ORIGIN_ID');
  return missing;
}

/**
 * Writes the file into `outDir` and marks its payments; null when nothing waits (no file is written). Of two runs at
 * once, the second waits for the first's turn and then finds its payments submitted. The file is removed again when
 * the write that marks its payments fails.
 */
export async function exportAch(
  database: Database,
  deps: MoneyDeps & { secrets: SecretBox },
  settings: BankSettings,
  outDir: string,
  now: Date,
): Promise<AchFile | null> {
  const routing = settings.BANK_ROUTING_NUMBER!;
  let written: string | null = null;
  let file: AchFile | null;
  try {
    file = await database.write(async (trx) => {
      trx.takeTurn(EXPORT_TURN);
      await settlePartials(trx, outDir);
      const waiting = await trx
        .selectFrom('payments')
        .selectAll()
        .where('mode', '=', 'live')
        .where('rail', '=', 'ach')
        .where('direction', '=', 'outbound')
        .where('status', '=', 'pending_submission')
        .orderBy('org_id')
        .orderBy('created_at')
        .orderBy('id')
        .forUpdate()
        .execute();
      const skipped = waiting.filter((p) => Number(p.amount) > NACHA_MAX_AMOUNT).map((p) => p.id);
      const payments = waiting.filter((p) => Number(p.amount) <= NACHA_MAX_AMOUNT);
      if (payments.length === 0) return null;

      const externalIds = [...new Set(payments.map((p) => p.external_account_id!))];
      const externals = new Map(
        (await trx.selectFrom('external_accounts').selectAll().where('id', 'in', externalIds).execute()).map((e) => [
          e.id,
          e,
        ]),
      );
      const orgIds = [...new Set(payments.map((p) => p.org_id))];
      const orgs = new Map(
        (await trx.selectFrom('orgs').select(['id', 'name', 'display_name']).where('id', 'in', orgIds).execute()).map(
          (o) => [o.id, o.display_name ?? o.name],
        ),
      );
      // Trace numbers never repeat across files: the ODFI's 8 digits and the count of entries ever exported.
      const { sent } = await trx
        .selectFrom('payments')
        .select((eb) => eb.fn.countAll<number | string>().as('sent'))
        .where('ach_file_id', 'is not', null)
        .executeTakeFirstOrThrow();
      const { today } = await trx
        .selectFrom('ach_files')
        .select((eb) => eb.fn.countAll<number | string>().as('today'))
        .where('created_at', '>=', `${now.toISOString().slice(0, 10)}T00:00:00.000Z`)
        .executeTakeFirstOrThrow();

      const id = newId('achf', now.getTime());
      const name = `plinth-ach-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${id}.ach`;
      const effective = new Date(now.getTime() + 86_400_000).toISOString().slice(2, 10).replaceAll('-', '');
      const traces = new Map<string, string>();
      const batches: NachaBatch[] = orgIds.map((orgId) => ({
        companyName: orgs.get(orgId) ?? orgId,
        companyId: settings.BANK_ORIGIN_ID,
        entryDescription: 'PAYMENT',
        effectiveDate: effective,
        entries: payments
          .filter((p) => p.org_id === orgId)
          .map((p) => {
            const external = externals.get(p.external_account_id!)!;
            const trace = `${routing.slice(0, 8)}${String((Number(sent) + traces.size + 1) % 10_000_000).padStart(7, '0')}`;
            traces.set(p.id, trace);
            return {
              transactionCode: external.account_type === 'savings' ? '32' : '22',
              routingNumber: external.routing_number,
              accountNumber: deps.secrets.open(external.account_number, contextOf(SEALED_EXTERNAL_NUMBER)),
              amount: Number(p.amount),
              idNumber: p.id.slice(-15),
              name: external.account_holder_name,
              traceNumber: trace,
            };
          }),
      }));
      const text = writeNacha({
        destination: routing,
        destinationName: settings.BANK_NAME,
        origin: settings.BANK_ORIGIN_ID,
        originName: 'PLINTH',
        created: now,
        idModifier: ID_MODIFIERS[Number(today) % ID_MODIFIERS.length]!,
        batches,
      });
      const path = join(outDir, name);
      const partial = `${path}${PARTIAL}`;
      writeFileDurably(partial, text, { exclusive: true, mode: 0o600 });
      written = partial;

      // What is on disk, read back and checked against what was meant, before anything is marked.
      const bytes = readFileSync(partial);
      const read = readNacha(bytes.toString('latin1'));
      const credit = payments.reduce((s, p) => s + Number(p.amount), 0);
      if (read.entryCount !== payments.length || read.creditTotal !== credit || read.debitTotal !== 0)
        throw new Error(
          `${name} read back ${read.entryCount} entries, ${read.creditTotal} credit and ${read.debitTotal} debit; ` +
            `meant ${payments.length}, ${credit} and 0`,
        );
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const created_at = now.toISOString();
      await trx
        .insertInto('ach_files')
        .values({ id, name, entry_count: read.entryCount, debit_total: 0, credit_total: credit, sha256, created_at })
        .execute();
      for (const payment of payments as PaymentsTable[]) {
        const ctx = { trx, owner: { orgId: payment.org_id, mode: 'live' as const }, request: null, now };
        await submitByFile(deps, ctx, payment, { id, traceNumber: traces.get(payment.id)! });
      }
      return {
        id,
        name,
        path,
        entry_count: read.entryCount,
        debit_total: 0,
        credit_total: credit,
        sha256,
        skipped,
      };
    });
  } catch (error) {
    if (written !== null) rmSync(written, { force: true });
    throw error;
  }
  if (file !== null) publish(file.path);
  return file;
}

const PARTIAL = '.partial';
const FILE_NAME = /^plinth-ach-[0-9]{8}-achf_[0-9A-Za-z]+\.ach$/;

/** `NAME.partial` → `NAME`, made durable; done already (by a later run's `settlePartials`) is fine too. */
function publish(path: string): void {
  try {
    renameSync(`${path}${PARTIAL}`, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  syncDirectory(dirname(path));
}

/**
 * What killed runs left in `outDir`, settled under the export's turn: a `.partial` whose file was recorded is
 * published, one that was not is removed; the temporary files of a write cut before its rename are removed too.
 */
async function settlePartials(trx: Trx, outDir: string): Promise<void> {
  let changed = false;
  for (const entry of readdirSync(outDir)) {
    if (entry.startsWith('.plinth-ach-') && entry.endsWith('.tmp')) {
      rmSync(join(outDir, entry), { force: true });
      changed = true;
      continue;
    }
    if (!entry.endsWith(PARTIAL)) continue;
    const name = entry.slice(0, -PARTIAL.length);
    if (!FILE_NAME.test(name)) continue;
    const recorded = await trx.selectFrom('ach_files').select('id').where('name', '=', name).executeTakeFirst();
    if (recorded === undefined) rmSync(join(outDir, entry), { force: true });
    else renameSync(join(outDir, entry), join(outDir, name));
    changed = true;
  }
  if (changed) syncDirectory(outDir);
}
