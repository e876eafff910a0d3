/**
 * A NACHA (ACH) file writer: the records of the 94-character fixed-width format that `bank ach-export` writes
 * (docs/deploy.md, "Live money: the bank files"). Amounts are integer cents throughout. Its reader (nacha-read.ts)
 * parses what it wrote back and checks every control record against the entries, so a file is checked before any
 * payment is marked as sent in it.
 */

export interface NachaEntry {
  /** 22 checking credit, 32 savings credit, 27/37 the debits. */
  transactionCode: '22' | '32' | '27' | '37';
  /** The receiving bank's 9-digit routing number. */
  routingNumber: string;
  accountNumber: string;
  amount: number;
  idNumber: string;
  name: string;
  traceNumber: string;
}

export interface NachaBatch {
  companyName: string;
  companyId: string;
  entryDescription: string;
  /** YYMMDD */
  effectiveDate: string;
  entries: NachaEntry[];
}

export interface NachaFile {
  /** The bank's routing number (immediate destination) and name. */
  destination: string;
  destinationName: string;
  /** BANK_ORIGIN_ID: up to 10 characters. */
  origin: string;
  originName: string;
  /** The moment the file is made: YYMMDD and HHMM (UTC). */
  created: Date;
  idModifier: string;
  batches: NachaBatch[];
}

export interface NachaTotals {
  batchCount: number;
  entryCount: number;
  debitTotal: number;
  creditTotal: number;
  entryHash: number;
}

/** The largest amount one entry carries: 10 digits of cents. */
export const NACHA_MAX_AMOUNT = 9_999_999_999;

export const isDebit = (code: string) => code === '27' || code === '37';

/** NACHA's characters: upper-case ASCII; accents dropped, anything else a space. */
export function nachaText(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 .,&'/()-]/g, ' ');
}

function alpha(value: string, length: number): string {
  return nachaText(value).slice(0, length).padEnd(length, ' ');
}

function numeric(value: number, length: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a non-negative integer: ${value}`);
  const digits = String(value);
  if (digits.length > length) throw new Error(`${value} does not fit in ${length} digits`);
  return digits.padStart(length, '0');
}

function record(fields: string[]): string {
  const line = fields.join('');
  if (line.length !== 94) throw new Error(`a NACHA record is 94 characters, not ${line.length}`);
  return line;
}

const yymmdd = (d: Date) => d.toISOString().slice(2, 10).replaceAll('-', '');
const hhmm = (d: Date) => d.toISOString().slice(11, 16).replace(':', '');

/** The entry hash: the sum of the receiving banks' 8-digit routing prefixes, its 10 rightmost digits. */
export const hashOf = (entries: { routingNumber: string }[]) =>
  entries.reduce((sum, e) => sum + Number(e.routingNumber.slice(0, 8)), 0) % 10_000_000_000;

/** The file's text: records joined by CRLF-free newlines, padded with 9s to a multiple of ten lines. */
export function writeNacha(file: NachaFile): string {
  const lines: string[] = [];
  const odfi = file.destination.slice(0, 8);
  lines.push(
    record([
      '1',
      '01',
      ` ${file.destination}`,
      file.origin.padStart(10, ' ').slice(0, 10),
      yymmdd(file.created),
      hhmm(file.created),
      file.idModifier,
      '094',
      '10',
      '1',
      alpha(file.destinationName, 23),
      alpha(file.originName, 23),
      ' '.repeat(8),
    ]),
  );
  let all: NachaEntry[] = [];
  file.batches.forEach((batch, index) => {
    const batchNumber = numeric(index + 1, 7);
    const debits = batch.entries.filter((e) => isDebit(e.transactionCode)).reduce((s, e) => s + e.amount, 0);
    const credits = batch.entries.filter((e) => !isDebit(e.transactionCode)).reduce((s, e) => s + e.amount, 0);
    const serviceClass = debits === 0 ? '220' : credits === 0 ? '225' : '200';
    const companyId = batch.companyId.padStart(10, ' ').slice(0, 10);
    lines.push(
      record([
        '5',
        serviceClass,
        alpha(batch.companyName, 16),
        ' '.repeat(20),
        companyId,
        'CCD',
        alpha(batch.entryDescription, 10),
        ' '.repeat(6),
        batch.effectiveDate,
        '   ',
        '1',
        odfi,
        batchNumber,
      ]),
    );
    for (const e of batch.entries) {
      lines.push(
        record([
          '6',
          e.transactionCode,
          e.routingNumber.slice(0, 8),
          e.routingNumber.slice(8, 9),
          e.accountNumber.slice(0, 17).padEnd(17, ' '),
          numeric(e.amount, 10),
          alpha(e.idNumber, 15),
          alpha(e.name, 22),
          '  ',
          '0',
          e.traceNumber,
        ]),
      );
    }
    lines.push(
      record([
        '8',
        serviceClass,
        numeric(batch.entries.length, 6),
        numeric(hashOf(batch.entries), 10),
        numeric(debits, 12),
        numeric(credits, 12),
        companyId,
        ' '.repeat(19),
        ' '.repeat(6),
        odfi,
        batchNumber,
      ]),
    );
    all = all.concat(batch.entries);
  });
  const blocks = Math.ceil((lines.length + 1) / 10);
  lines.push(
    record([
      '9',
      numeric(file.batches.length, 6),
      numeric(blocks, 6),
      numeric(all.length, 8),
      numeric(hashOf(all), 10),
      numeric(
        all.filter((e) => isDebit(e.transactionCode)).reduce((s, e) => s + e.amount, 0),
        12,
      ),
      numeric(
        all.filter((e) => !isDebit(e.transactionCode)).reduce((s, e) => s + e.amount, 0),
        12,
      ),
      ' '.repeat(39),
    ]),
  );
  while (lines.length % 10 !== 0) lines.push('9'.repeat(94));
  return `${lines.join('\n')}\n`;
}
