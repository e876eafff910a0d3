import { BAI_CODE, BAI_KIND, baiDirection } from './codes.ts';
import { decimalOf, type Statement, type StatementLine, StatementRefused } from './statement.ts';

/**
 * BAI2 (Cash Management Balance Reporting Specifications, version 2), one account's day: records 01 (file header),
 * 02 (group), 03 (account, with the opening 010 and closing 015 ledger balances), 16 (a transaction) with its 88
 * continuations, 49 (account trailer), 98 (group trailer), 99 (file trailer). Every control total and record count is
 * checked: a file that does not add up is refused whole, naming the mismatch.
 */

interface RecordLine {
  code: string;
  fields: string[];
  /** Its 88 continuations' text. */
  more: string[];
}

/** The records, each with its 88 continuations joined to it as further fields, and the raw record count. */
function recordsOf(text: string): { records: RecordLine[]; raw: string[][] } {
  const raw = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((l) => (l.endsWith('/') ? l.slice(0, -1) : l).split(','));
  const records: RecordLine[] = [];
  for (const fields of raw) {
    const code = fields[0]!;
    if (code === '88') {
      const last = records.at(-1);
      if (last === undefined) throw new StatementRefused('BAI2: an 88 continuation before any record');
      last.more.push(fields.slice(1).join(','));
      continue;
    }
    records.push({ code, fields: fields.slice(1), more: [] });
  }
  return { records, raw };
}

const int = (text: string | undefined, what: string): number => {
  if (text === undefined || !/^[-+]?[0-9]+$/.test(text))
    throw new StatementRefused(`BAI2: ${what} "${text}" is not a number`);
  return Number(text);
};

const dateOf = (yymmdd: string): string => {
  if (!/^[0-9]{6}$/.test(yymmdd)) throw new StatementRefused(`BAI2: the as-of date "${yymmdd}" is not YYMMDD`);
  return `20${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
};

function mismatch(what: string, stated: number, counted: number, money: boolean): StatementRefused {
  const show = (n: number) => (money ? decimalOf(n) : String(n));
  return new StatementRefused(
    `control total mismatch: ${what} says ${show(stated)}, the file adds up to ${show(counted)}`,
  );
}

export function parseBai2(text: string): Statement {
  const { records, raw } = recordsOf(text);
  const codes = records.map((r) => r.code);
  if (codes[0] !== '01' || codes.at(-1) !== '99')
    throw new StatementRefused('BAI2: the file must begin with an 01 record and end with a 99 record');
  if (codes.filter((c) => c === '02').length !== 1 || codes.filter((c) => c === '03').length !== 1)
    throw new StatementRefused("BAI2: one group (02) with one account (03) per file: the omnibus account's day");
  const group = records.find((r) => r.code === '02')!;
  const date = dateOf(group.fields[3] ?? '');
  const account = records.find((r) => r.code === '03')!;
  const currency = account.fields[1] || (group.fields[5] ?? '');
  let opening: number | undefined;
  let closing: number | undefined;
  let accountSum = 0;
  // 03: account, currency, then (type code, amount, item count, funds type) repeated.
  for (let i = 2; i + 1 < account.fields.length; i += 4) {
    const type = account.fields[i];
    if (type === '' || type === undefined) continue;
    const amount = int(account.fields[i + 1], `balance ${type}`);
    accountSum += amount;
    if (type === '010') opening = amount;
    if (type === '015') closing = amount;
  }
  if (opening === undefined || closing === undefined)
    throw new StatementRefused('BAI2: the 03 record needs the opening (010) and closing (015) ledger balances');
  const lines: StatementLine[] = [];
  for (const r of records.filter((each) => each.code === '16')) {
    // 16: type code, amount, funds type, bank reference, customer reference, text (the rest; 88s appended).
    const [type = '', amountText, , reference = '', customer = ''] = r.fields;
    const text = r.fields.slice(5).join(',');
    const more = r.more;
    const direction = baiDirection(type);
    if (direction === null) throw new StatementRefused(`BAI2: the type code "${type}" is not a transaction code`);
    const amount = int(amountText, `the amount of ${reference}`);
    accountSum += amount;
    const kind = BAI_KIND[type] ?? 'other';
    const description = more.length > 0 ? more.join(' ') : null;
    lines.push({
      reference,
      date,
      direction,
      amount,
      kind,
      accountNumber: kind === 'credit' && customer !== '' ? customer : null,
      traceNumber: (kind === 'ach_settlement' || kind === 'ach_return') && customer !== '' ? customer : null,
      returnCode: kind === 'ach_return' && text !== '' ? text : null,
      counterparty: kind !== 'ach_return' && text !== '' ? text : null,
      description,
    });
  }
  // Record counts: 49 counts its account's records (03 to 49, 88s included), 98 its group's (02 to 98), 99 all.
  const at = (code: string) => raw.findIndex((f) => f[0] === code);
  const trailer49 = records.find((r) => r.code === '49');
  const trailer98 = records.find((r) => r.code === '98');
  const trailer99 = records.at(-1)!;
  if (trailer49 === undefined || trailer98 === undefined)
    throw new StatementRefused('BAI2: the account trailer (49) and group trailer (98) are required');
  const check = (what: string, stated: number, counted: number, money = false) => {
    if (stated !== counted) throw mismatch(what, stated, counted, money);
  };
  check('the account trailer (49) control total', int(trailer49.fields[0], '49 total'), accountSum, true);
  check('the account trailer (49) record count', int(trailer49.fields[1], '49 count'), at('49') - at('03') + 1);
  check('the group trailer (98) control total', int(trailer98.fields[0], '98 total'), accountSum, true);
  check('the group trailer (98) account count', int(trailer98.fields[1], '98 accounts'), 1);
  check('the group trailer (98) record count', int(trailer98.fields[2], '98 count'), at('98') - at('02') + 1);
  check('the file trailer (99) control total', int(trailer99.fields[0], '99 total'), accountSum, true);
  check('the file trailer (99) group count', int(trailer99.fields[1], '99 groups'), 1);
  check('the file trailer (99) record count', int(trailer99.fields[2], '99 count'), raw.length);
  return { format: 'bai2', account: account.fields[0] ?? '', date, currency, opening, closing, lines };
}

/** One day as BAI2 (the fixtures; docs/deploy.md's example), with every control total. */
export function writeBai2(statement: Statement): string {
  const yymmdd = statement.date.slice(2).replaceAll('-', '');
  const body: string[] = [];
  body.push(`03,${statement.account},${statement.currency},010,${statement.opening},,,015,${statement.closing},,/`);
  let total = statement.opening + statement.closing;
  for (const line of statement.lines) {
    const customer = line.kind === 'credit' ? (line.accountNumber ?? '') : (line.traceNumber ?? '');
    const text = line.kind === 'ach_return' ? (line.returnCode ?? '') : (line.counterparty ?? '');
    body.push(`16,${BAI_CODE[line.kind]},${line.amount},Z,${line.reference},${customer},${text}/`);
    if (line.description !== null) body.push(`88,${line.description}/`);
    total += line.amount;
  }
  body.push(`49,${total},${body.length + 1}/`);
  const group = [`02,PLINTH,BANK,1,${yymmdd},2359,${statement.currency},2/`, ...body];
  group.push(`98,${total},1,${group.length + 1}/`);
  const file = [`01,BANK,PLINTH,${yymmdd},2359,1,,,2/`, ...group];
  file.push(`99,${total},1,${file.length + 1}/`);
  return `${file.join('\n')}\n`;
}
