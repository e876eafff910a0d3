import { readFileSync } from 'node:fs';
import type { Db } from '../db/database.ts';
import type { Checkpoint } from '../modules/audit/index.ts';
import { allKeys, openCheckpoint, rotateKey, verifyChain } from '../modules/audit/index.ts';
import { findOrgForOperator } from '../modules/keys/index.ts';
import { EVENT_CHECKS } from '../modules.ts';
import type { OrgsTable } from '../platform/auth/tables.ts';
import { systemClock } from '../platform/kit/time.ts';
import { secretBoxFor } from '../platform/secrets/key-source.ts';
import { withDatabase } from './context.ts';
import { EXIT, Failure } from './exits.ts';

/** What `audit verify` and `audit rotate-key` do (src/cli/audit.ts parses them). */

export function verify(flags: { org: string; mode: 'sandbox' | 'live'; checkpoint?: string; json?: true }) {
  return withDatabase(async (database) => {
    const db = database.db;
    const org = await orgNamed(db, flags.org);
    let checkpoint: Checkpoint | undefined;
    if (flags.checkpoint !== undefined) {
      let text: string;
      try {
        text = readFileSync(flags.checkpoint, 'utf8');
      } catch (error) {
        throw new Failure(`--checkpoint: cannot read ${flags.checkpoint}: ${(error as Error).message}`, EXIT.data);
      }
      const note = text.trimStart().startsWith('{') ? noteOf(text) : text;
      const keys = (await allKeys(db)).map((k) => ({ name: k.name, publicKey: Buffer.from(k.public_key, 'base64') }));
      const opened = openCheckpoint(note, keys);
      if ('error' in opened) throw new Failure(`--checkpoint ${flags.checkpoint}: ${opened.error}`);
      checkpoint = opened.checkpoint;
    }
    const result = await verifyChain(db, { orgId: org.id, mode: flags.mode }, { checks: EVENT_CHECKS, checkpoint });
    if (flags.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else if (result.failure === null) {
      const rows = Object.entries(result.rows).map(([table, n]) => `${n} ${table} rows agree with their events`);
      process.stdout.write(
        `ok: ${result.origin}: ${result.size} events chained, head ${result.hash}; ${result.bodies} bodies checked ` +
          `(${result.expired} expired)${rows.length > 0 ? `; ${rows.join(', ')}` : ''}` +
          `${checkpoint ? `; extends the checkpoint at ${checkpoint.size}` : ''}\n`,
      );
    } else {
      const f = result.failure;
      process.stdout.write(
        `FAILED: ${result.origin}: ${f.sequence === null ? '' : `sequence ${f.sequence}: `}${f.table}: ${f.why}` +
          `${result.problems > 1 ? ` (and ${result.problems - 1} more problems)` : ''}\n`,
      );
    }
    if (result.failure !== null) throw new Failure('');
  });
}

/** The org `--org` names: its id or name, else the one org signed up under that display name. */
async function orgNamed(db: Db, ref: string): Promise<OrgsTable> {
  const { org, signedUpAs } = await findOrgForOperator({ db }, ref);
  if (org === undefined && signedUpAs.length > 1)
    throw new Failure(
      `several orgs signed up as ${JSON.stringify(ref)} (${signedUpAs.map((o) => o.id).join(', ')}): ` +
        'give --org <org id>',
    );
  const found = org ?? signedUpAs[0];
  if (found === undefined)
    throw new Failure(
      `no org ${JSON.stringify(ref)}: give its id (org_…), or the name given to keys create or at sign-up`,
    );
  return found;
}

/** The note inside a saved `GET /v1/audit/checkpoint` answer. */
function noteOf(text: string): string {
  try {
    const note = (JSON.parse(text) as { note?: unknown }).note;
    if (typeof note === 'string') return note;
  } catch {}
  throw new Failure(
    '--checkpoint: a JSON file must be the answer of GET /v1/audit/checkpoint (with its "note")',
    EXIT.data,
  );
}

export function rotate() {
  return withDatabase(async (database, config) => {
    const row = await rotateKey(database, secretBoxFor(config), systemClock());
    process.stdout.write(
      `${JSON.stringify({ name: row.name, public_key: row.public_key, created_at: row.created_at })}\n`,
    );
  });
}
