/**
 * `bank ach-export` (docs/deploy.md, "Live money: the bank files"), on both backends: live ACH payments waiting for
 * submission go into one NACHA file that an independent reader (Python, PyPI carta-ach) reads with the same count and
 * totals; they are then submitted with their trace numbers; two exports at once put each payment in exactly one file;
 * nothing to send writes no file and exits 0.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { eventRecorderOutsideTheApp } from '../../../src/modules.ts';
import { ownerNow } from '../../../src/platform/clock/clock.ts';
import { systemClock } from '../../../src/platform/kit/time.ts';
import { readNacha } from '../../../src/products/fintech/bank/nacha-read.ts';
import { toAmount } from '../../../src/products/fintech/ledger/amount.ts';
import { receivePayment } from '../../../src/products/fintech/payments.inbound.ts';
import { BACKEND } from '../../helpers/database.ts';
import { money } from '../../helpers/money.ts';
import { run } from '../../helpers/process.ts';
import { useServer } from '../../helpers/server.ts';

const ROUTING = '021000021';
const BANK = { BANK_ROUTING_NUMBER: ROUTING, BANK_NAME: 'First Test Bank', BANK_ORIGIN_ID: '1234567890' };
const CARTA_ACH = 'carta-ach==0.4.5';
const READER = fileURLToPath(new URL('./nacha_read.py', import.meta.url));

/** carta-ach, installed once per machine beside the other test caches; null (with why) when it cannot be. */
function installReader(): { path: string } | { skip: string } {
  const python = spawnSync('python3', ['--version']);
  if (python.error !== undefined) return { skip: 'python3 is not installed: the independent NACHA reader needs it' };
  const target = join(tmpdir(), 'plinth-carta-ach-0.4.5');
  if (!existsSync(join(target, 'ach', 'parser.py'))) {
    const pip = spawnSync('python3', ['-m', 'pip', 'install', '--quiet', '--no-deps', '--target', target, CARTA_ACH]);
    if (pip.status !== 0) return { skip: `pip could not install ${CARTA_ACH}: ${pip.stderr.toString().trim()}` };
  }
  return { path: target };
}

describe(`bank ach-export (${BACKEND})`, () => {
  const server = useServer({ BANK_ROUTING_NUMBER: ROUTING });
  const dirs: string[] = [];
  const outDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'plinth-ach-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const exportTo = (dir: string) =>
    run(['src/cli/main.ts', 'bank', 'ach-export', '--out', dir], { DATABASE_URL: server.databaseUrl, ...BANK });

  /** A live org with a funded account (an inbound credit to its number) and two external accounts. */
  async function liveOrg(name: string) {
    const key = await server.key(name, 'live');
    const m = money(server.url, key);
    const account = await m.account();
    const number = await m.post('/v1/fintech/account_numbers', { account_id: account, name: 'Main' });
    const row = await server.database.db
      .selectFrom('account_numbers')
      .selectAll()
      .where('id', '=', number.id)
      .executeTakeFirstOrThrow();
    const deps = {
      db: server.database.db,
      clock: systemClock,
      now: ownerNow(systemClock),
      events: eventRecorderOutsideTheApp(),
      secrets: undefined as never,
      routingNumber: ROUTING,
    };
    await server.database.write((trx) =>
      receivePayment(deps, { trx, owner: { orgId: row.org_id, mode: 'live' }, request: null, now: new Date() }, row, {
        amount: toAmount(10_000_000),
        rail: 'ach',
        direction: 'credit',
        originator: 'Funding Co',
        description: 'funding',
      }),
    );
    const checking = await m.post('/v1/fintech/external_accounts', {
      routing_number: '011000015',
      account_number: '000123456789',
      account_holder_name: 'Acme Supplies LLC',
      account_type: 'checking',
    });
    const savings = await m.post('/v1/fintech/external_accounts', {
      routing_number: '021000021',
      account_number: '9876543210',
      account_holder_name: 'Zoë Café Holdings',
      account_type: 'savings',
    });
    const pay = async (external: string, amount: number) => {
      const body = { account_id: account, external_account_id: external, amount, currency: 'USD', rail: 'ach' };
      const payment = await m.post('/v1/fintech/payments', body);
      assert.equal(payment.status, 'pending_submission', 'live ACH waits for the bank file');
      return payment.id as string;
    };
    return { m, checking: checking.id as string, savings: savings.id as string, pay };
  }

  let acme: Awaited<ReturnType<typeof liveOrg>>;
  let umbrella: Awaited<ReturnType<typeof liveOrg>>;
  before(async () => {
    acme = await liveOrg('acme-ach');
    umbrella = await liveOrg('umbrella-ach');
  });

  test('nothing waiting: no file, exit 0', async () => {
    const dir = outDir();
    const result = await exportTo(dir);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /no file written/);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('one file, one CCD batch per org, read back by an independent reader; payments submitted', async (t) => {
    const ids = [
      await acme.pay(acme.checking, 12_345),
      await acme.pay(acme.savings, 700),
      await umbrella.pay(umbrella.checking, 99_999),
    ];
    const dir = outDir();
    const result = await exportTo(dir);
    assert.equal(result.code, 0, result.stderr);
    const file = JSON.parse(result.stdout);
    assert.match(file.id, /^achf_/);
    assert.deepEqual(readdirSync(dir), [file.name], 'only the file: no temporary left behind');
    assert.equal(file.entry_count, 3);
    assert.equal(file.credit_total, 12_345 + 700 + 99_999);
    assert.equal(file.debit_total, 0);
    const bytes = readFileSync(join(dir, file.name));
    const { createHash } = await import('node:crypto');
    assert.equal(file.sha256, createHash('sha256').update(bytes).digest('hex'));
    const ours = readNacha(bytes.toString('latin1'));
    assert.equal(ours.batchCount, 2);

    const traces = new Map<string, string>();
    for (const [i, id] of ids.entries()) {
      const m = i < 2 ? acme.m : umbrella.m;
      const payment = await m.get(`/v1/fintech/payments/${id}`);
      assert.equal(payment.status, 'submitted');
      const row = await server.database.db
        .selectFrom('payments')
        .select(['ach_file_id', 'trace_number'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(row.ach_file_id, file.id);
      assert.match(row.trace_number!, /^02100002\d{7}$/);
      traces.set(id, row.trace_number!);
    }
    const record = await server.database.db
      .selectFrom('ach_files')
      .selectAll()
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    assert.equal(record.sha256, file.sha256);
    assert.equal(Number(record.credit_total), file.credit_total);

    const reader = installReader();
    if ('skip' in reader) return t.skip(reader.skip);
    const theirs = JSON.parse(
      execFileSync('python3', [READER, join(dir, file.name)], {
        env: { ...process.env, PYTHONPATH: reader.path },
      }).toString(),
    );
    assert.equal(theirs.immediate_destination, ROUTING);
    assert.equal(theirs.batch_count, 2);
    assert.equal(theirs.entry_count, 3);
    assert.equal(theirs.entries_counted, 3);
    assert.equal(theirs.credit_total, file.credit_total);
    assert.equal(theirs.entries_credit, file.credit_total);
    assert.equal(theirs.debit_total, 0);
    assert.equal(theirs.entries_debit, 0);
    assert.equal(theirs.batch_companies.length, 2);
    assert.deepEqual(new Set(theirs.traces), new Set(traces.values()));
    assert.deepEqual(theirs.accounts.toSorted(), ['000123456789', '000123456789', '9876543210']);

    const again = await exportTo(outDir());
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, '', 'submitted payments are not sent twice');
  });

  test('two exports at once (two processes): each payment in exactly one file', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const org = i % 2 ? acme : umbrella;
      ids.push(await org.pay(org.checking, 1000 + i));
    }
    const [a, b] = [outDir(), outDir()];
    const results = await Promise.all([exportTo(a), exportTo(b)]);
    for (const r of results) assert.equal(r.code, 0, r.stderr);
    const files = [a, b].flatMap((dir) => readdirSync(dir).map((name) => readFileSync(join(dir, name), 'latin1')));
    const traces = files.flatMap((text) => readNacha(text).entries.map((e) => e.traceNumber));
    assert.equal(traces.length, ids.length, 'every payment in a file');
    assert.equal(new Set(traces).size, ids.length, 'none in two');
    const rows = await server.database.db
      .selectFrom('payments')
      .select(['status', 'trace_number'])
      .where('id', 'in', ids)
      .execute();
    assert.deepEqual(new Set(rows.map((r) => r.trace_number)), new Set(traces));
    assert.ok(rows.every((r) => r.status === 'submitted'));
  });

  test('a run killed before its commit or before its rename is settled by the next: published or removed', async () => {
    const dir = outDir();
    const first = [await acme.pay(acme.checking, 3001), await umbrella.pay(umbrella.checking, 3002)];
    const made = await exportTo(dir);
    assert.equal(made.code, 0, made.stderr);
    const committed = JSON.parse(made.stdout);
    // Killed after the commit, before the rename: the file is recorded, its payments submitted, its name not final.
    renameSync(join(dir, committed.name), join(dir, `${committed.name}.partial`));
    // Killed before the commit: a file nobody recorded, and a temporary cut before its rename.
    const orphan = 'plinth-ach-20261128-achf_0000000000000000000000.ach.partial';
    writeFileSync(join(dir, orphan), 'an export that never committed');
    writeFileSync(join(dir, `.${orphan}.123.abcd.tmp`), 'cut');
    const second = [await acme.pay(acme.savings, 3003)];
    const next = await exportTo(dir);
    assert.equal(next.code, 0, next.stderr);
    const file = JSON.parse(next.stdout);
    assert.deepEqual(readdirSync(dir).sort(), [committed.name, file.name].sort(), 'published, removed, written');
    const { createHash } = await import('node:crypto');
    assert.equal(
      createHash('sha256')
        .update(readFileSync(join(dir, committed.name)))
        .digest('hex'),
      committed.sha256,
    );
    const traces = (name: string) =>
      readNacha(readFileSync(join(dir, name), 'latin1')).entries.map((e) => e.traceNumber);
    const rows = await server.database.db
      .selectFrom('payments')
      .select(['id', 'trace_number', 'ach_file_id'])
      .where('id', 'in', [...first, ...second])
      .execute();
    const of = (ids: string[]) => rows.filter((r) => ids.includes(r.id));
    assert.deepEqual(new Set(traces(committed.name)), new Set(of(first).map((r) => r.trace_number)));
    assert.deepEqual(
      traces(file.name),
      of(second).map((r) => r.trace_number),
      'only the payment still waiting',
    );
    assert.ok(of(first).every((r) => r.ach_file_id === committed.id) && of(second)[0]!.ach_file_id === file.id);
  });

  test('two exports held at the same point then let go (PostgreSQL): each payment in exactly one file', {
    skip: BACKEND === 'postgres' ? false : 'SQLite runs one write at a time: two exports cannot overlap',
  }, async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const org = i % 2 ? acme : umbrella;
      ids.push(await org.pay(org.checking, 2000 + i));
    }
    // Both exports block on this lock once they have read the waiting payments (their next read is ach_files); let
    // go when both wait. Without the export's turn (and row locks) both would then write the same payments.
    const holder = new pg.Client({ connectionString: server.databaseUrl });
    const watcher = new pg.Client({ connectionString: server.databaseUrl });
    await holder.connect();
    await watcher.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table ach_files in access exclusive mode');
      const [a, b] = [outDir(), outDir()];
      const running = Promise.all([exportTo(a), exportTo(b)]);
      for (;;) {
        // (pg_stat_activity is read once per transaction: holder's would never change.)
        const waiting = await watcher.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        );
        if (waiting.rows[0].n >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await holder.query('commit');
      const results = await running;
      for (const r of results) assert.equal(r.code, 0, r.stderr);
      const files = [a, b].flatMap((dir) => readdirSync(dir).map((name) => readFileSync(join(dir, name), 'latin1')));
      assert.equal(files.length, 1, 'the second export found nothing left to send');
      const traces = readNacha(files[0]!).entries.map((e) => e.traceNumber);
      assert.equal(traces.length, ids.length);
    } finally {
      await holder.end();
      await watcher.end();
    }
  });

  test('the settings it needs: exit 2 naming them, nothing written', async () => {
    const dir = outDir();
    const result = await run(['src/cli/main.ts', 'bank', 'ach-export', '--out', dir], {
      DATABASE_URL: server.databaseUrl,
      BANK_ROUTING_NUMBER: ROUTING,
      BANK_NAME: '',
      BANK_ORIGIN_ID: '',
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /BANK_NAME, BANK_ORIGIN_ID/);
    assert.deepEqual(readdirSync(dir), []);
    const missing = await exportTo(join(dir, 'absent'));
    assert.equal(missing.code, 65, missing.stderr);
  });
});
