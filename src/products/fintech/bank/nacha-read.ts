import { hashOf, isDebit, type NachaTotals } from './nacha.ts';

export interface ReadEntry {
  transactionCode: string;
  routingNumber: string;
  accountNumber: string;
  amount: number;
  traceNumber: string;
}

/**
 * Reads a file and checks it: every line 94 characters, records in order, each batch's and the file's control
 * record equal to what its entries add up to, the block count and padding right. Throws naming the first mismatch.
 */
export function readNacha(text: string): NachaTotals & { entries: ReadEntry[] } {
  const lines = text.replace(/\n$/, '').split('\n');
  const fail = (n: number, why: string): never => {
    throw new Error(`NACHA line ${n + 1}: ${why}`);
  };
  for (const [n, line] of lines.entries()) if (line.length !== 94) fail(n, `${line.length} characters, not 94`);
  if (lines.length % 10 !== 0) fail(lines.length - 1, `${lines.length} lines, not a multiple of 10`);
  if (lines[0]?.[0] !== '1') fail(0, 'the file header (1) must come first');
  const entries: ReadEntry[] = [];
  let batchCount = 0;
  let n = 1;
  for (; lines[n]?.[0] === '5'; n++) {
    batchCount++;
    const header = lines[n]!;
    const batch: ReadEntry[] = [];
    for (n++; lines[n]?.[0] === '6'; n++) {
      const l = lines[n]!;
      batch.push({
        transactionCode: l.slice(1, 3),
        routingNumber: l.slice(3, 12),
        accountNumber: l.slice(12, 29).trimEnd(),
        amount: Number(l.slice(29, 39)),
        traceNumber: l.slice(79, 94),
      });
    }
    const control = lines[n];
    if (control?.[0] !== '8') fail(n, 'a batch control (8) must end the batch');
    const c = control!;
    const debits = batch.filter((e) => isDebit(e.transactionCode)).reduce((s, e) => s + e.amount, 0);
    const credits = batch.filter((e) => !isDebit(e.transactionCode)).reduce((s, e) => s + e.amount, 0);
    if (c.slice(1, 4) !== header.slice(1, 4)) fail(n, 'service class differs from its header');
    if (Number(c.slice(4, 10)) !== batch.length) fail(n, `entry count ${Number(c.slice(4, 10))} ≠ ${batch.length}`);
    if (Number(c.slice(10, 20)) !== hashOf(batch)) fail(n, 'entry hash differs from its entries');
    if (Number(c.slice(20, 32)) !== debits) fail(n, `debit total ${Number(c.slice(20, 32))} ≠ ${debits}`);
    if (Number(c.slice(32, 44)) !== credits) fail(n, `credit total ${Number(c.slice(32, 44))} ≠ ${credits}`);
    if (c.slice(87, 94) !== header.slice(87, 94)) fail(n, 'batch number differs from its header');
    entries.push(...batch);
  }
  const control = lines[n];
  if (control?.[0] !== '9') fail(n, 'the file control (9) must follow the last batch');
  const c = control!;
  const totals: NachaTotals = {
    batchCount,
    entryCount: entries.length,
    debitTotal: entries.filter((e) => isDebit(e.transactionCode)).reduce((s, e) => s + e.amount, 0),
    creditTotal: entries.filter((e) => !isDebit(e.transactionCode)).reduce((s, e) => s + e.amount, 0),
    entryHash: hashOf(entries),
  };
  if (Number(c.slice(1, 7)) !== batchCount) fail(n, 'batch count differs');
  if (Number(c.slice(7, 13)) !== lines.length / 10) fail(n, 'block count differs');
  if (Number(c.slice(13, 21)) !== totals.entryCount) fail(n, 'entry count differs');
  if (Number(c.slice(21, 31)) !== totals.entryHash) fail(n, 'entry hash differs');
  if (Number(c.slice(31, 43)) !== totals.debitTotal) fail(n, 'debit total differs');
  if (Number(c.slice(43, 55)) !== totals.creditTotal) fail(n, 'credit total differs');
  for (n++; n < lines.length; n++) if (lines[n] !== '9'.repeat(94)) fail(n, 'padding must be all 9s');
  return { ...totals, entries };
}
