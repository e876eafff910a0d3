import {
  centsOf,
  decimalOf,
  type LineKind,
  type Statement,
  type StatementLine,
  StatementRefused,
} from './statement.ts';

/**
 * CSV statements: a header row, then one row per line, and two rows of type `opening_balance` and `closing_balance`
 * (amount signed). Columns are found by name; `--map field=Header,…` names the file's own header for any field.
 */

export const CSV_FIELDS = [
  'reference',
  'date',
  'type',
  'direction',
  'amount',
  'account_number',
  'trace_number',
  'return_code',
  'counterparty',
  'description',
] as const;
type Field = (typeof CSV_FIELDS)[number];
const KINDS: readonly LineKind[] = ['credit', 'ach_settlement', 'ach_return', 'fee', 'other'];

/** `reference=Bank Ref,amount=Amount` as a field → header map; refuses unknown fields. */
export function parseColumnMap(text: string | undefined): Partial<Record<Field, string>> {
  const map: Partial<Record<Field, string>> = {};
  if (text === undefined || text === '') return map;
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    const field = pair.slice(0, at).trim() as Field;
    if (at < 1 || !CSV_FIELDS.includes(field))
      throw new StatementRefused(`--map: "${pair}" is not field=Header with a field among ${CSV_FIELDS.join(', ')}`);
    map[field] = pair.slice(at + 1).trim();
  }
  return map;
}

/** RFC 4180 rows: quoted fields may hold commas, quotes ("") and line breaks. */
function rowsOf(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new StatementRefused('CSV: a quoted field is not closed');
  row.push(field);
  if (row.some((f) => f !== '')) rows.push(row);
  return rows;
}

export function parseCsv(text: string, mapText?: string): Statement {
  const map = parseColumnMap(mapText);
  const [header, ...rows] = rowsOf(text.replace(/^\uFEFF/, ''));
  if (header === undefined) throw new StatementRefused('CSV: the file is empty');
  const column = {} as Record<Field, number>;
  for (const field of CSV_FIELDS) column[field] = header.indexOf(map[field] ?? field);
  for (const field of ['reference', 'date', 'type', 'amount'] as const)
    if (column[field] < 0)
      throw new StatementRefused(`CSV: no "${map[field] ?? field}" column (name it with --map ${field}=<header>)`);
  let opening: number | undefined;
  let closing: number | undefined;
  let date = '';
  const lines: StatementLine[] = [];
  rows.forEach((row, index) => {
    const get = (field: Field) => (column[field] < 0 ? '' : (row[column[field]] ?? '').trim());
    const orNull = (field: Field) => (get(field) === '' ? null : get(field));
    const type = get('type');
    const where = `CSV row ${index + 2}`;
    if (type === 'opening_balance' || type === 'closing_balance') {
      const cents = centsOf(get('amount'), `${where} (${type})`);
      if (type === 'opening_balance') opening = cents;
      else {
        closing = cents;
        date = get('date');
      }
      return;
    }
    if (!KINDS.includes(type as LineKind))
      throw new StatementRefused(
        `${where}: type "${type}" is not one of ${KINDS.join(', ')}, opening_balance, closing_balance`,
      );
    const signed = centsOf(get('amount'), `${where} amount`);
    const direction = get('direction') === '' ? (signed < 0 ? 'debit' : 'credit') : get('direction');
    if (direction !== 'credit' && direction !== 'debit')
      throw new StatementRefused(`${where}: direction "${direction}" is not credit or debit`);
    lines.push({
      reference: get('reference'),
      date: get('date'),
      direction,
      amount: Math.abs(signed),
      kind: type as LineKind,
      accountNumber: orNull('account_number'),
      traceNumber: orNull('trace_number'),
      returnCode: orNull('return_code'),
      counterparty: orNull('counterparty'),
      description: orNull('description'),
    });
  });
  if (opening === undefined || closing === undefined)
    throw new StatementRefused('CSV: the opening_balance and closing_balance rows are required');
  return { format: 'csv', account: '', date, currency: 'USD', opening, closing, lines };
}

const quote = (text: string | null) => {
  if (text === null) return '';
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** One day as CSV with the default columns (the fixtures; docs/deploy.md's example). */
export function writeCsv(statement: Statement): string {
  const rows = [CSV_FIELDS.join(',')];
  rows.push(['', statement.date, 'opening_balance', '', decimalOf(statement.opening), '', '', '', '', ''].join(','));
  for (const l of statement.lines)
    rows.push(
      [
        l.reference,
        l.date,
        l.kind,
        l.direction,
        decimalOf(l.amount),
        l.accountNumber,
        l.traceNumber,
        l.returnCode,
        l.counterparty,
        l.description,
      ]
        .map(quote)
        .join(','),
    );
  rows.push(['', statement.date, 'closing_balance', '', decimalOf(statement.closing), '', '', '', '', ''].join(','));
  return `${rows.join('\n')}\n`;
}
