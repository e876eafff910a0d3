import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { CAMT_CODE, camtKind } from './codes.ts';
import { centsOf, decimalOf, type Statement, type StatementLine, StatementRefused } from './statement.ts';

/**
 * camt.053 (ISO 20022 BankToCustomerStatement), versions 001.02 to 001.08, read with fast-xml-parser: the namespace
 * is checked, prefixes dropped, and the elements these versions share are read (where .07/.08 moved one, both places).
 * The statement's own control totals (`TxsSummry`: credit and debit entry counts and sums) are checked when present.
 */

const NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:camt\.053\.001\.0([2-8])$/;

// biome-ignore lint/suspicious/noExplicitAny: parsed XML is checked field by field below.
type Node = any;

const ARRAYS = new Set(['Stmt', 'Bal', 'Ntry', 'TxDtls']);

const textOf = (node: Node): string | undefined => {
  if (node === undefined || node === null) return undefined;
  if (typeof node === 'object') return node['#text'] === undefined ? undefined : String(node['#text']);
  return String(node);
};

export function parseCamt053(xml: string): Statement {
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new StatementRefused(`camt.053: not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: true,
    isArray: (name) => ARRAYS.has(name),
  });
  const root: Node = parser.parse(xml);
  const document = root?.Document;
  // The default namespace of the root (prefixes are dropped by the parser, and with them the xmlns attributes).
  const namespace = /<(?:[\w.-]+:)?Document\b[^>]*?\sxmlns(?::[\w.-]+)?="([^"]*)"/.exec(xml)?.[1] ?? '';
  if (document === undefined || !NAMESPACE.test(namespace))
    throw new StatementRefused(
      `camt.053: the Document's namespace "${namespace}" is not camt.053.001.02 to .08 (urn:iso:std:iso:20022:tech:xsd:camt.053.001.0N)`,
    );
  const statements: Node[] = document.BkToCstmrStmt?.Stmt ?? [];
  if (statements.length !== 1)
    throw new StatementRefused(`camt.053: one Stmt per file (this one has ${statements.length})`);
  const stmt = statements[0];
  const balances: Node[] = stmt.Bal ?? [];
  const balance = (code: string) => {
    const bal = balances.find((b) => (b.Tp?.CdOrPrtry?.Cd ?? '') === code);
    if (bal === undefined) throw new StatementRefused(`camt.053: no ${code} balance (Bal/Tp/CdOrPrtry/Cd)`);
    const cents = centsOf(textOf(bal.Amt) ?? '', `the ${code} balance`);
    return {
      cents: bal.CdtDbtInd === 'DBIT' ? -cents : cents,
      date: String(bal.Dt?.Dt ?? ''),
      currency: bal.Amt?.['@Ccy'],
    };
  };
  const opening = balance('OPBD');
  const closing = balance('CLBD');
  const date = closing.date.slice(0, 10);
  const lines: StatementLine[] = (stmt.Ntry ?? []).map((entry: Node, index: number): StatementLine => {
    const reference = textOf(entry.AcctSvcrRef) ?? '';
    if (reference === '')
      throw new StatementRefused(`camt.053: entry ${index + 1} has no AcctSvcrRef (the bank's reference)`);
    const indicator = entry.CdtDbtInd;
    if (indicator !== 'CRDT' && indicator !== 'DBIT')
      throw new StatementRefused(`camt.053: entry ${reference}: CdtDbtInd must be CRDT or DBIT`);
    const code = entry.BkTxCd?.Domn;
    const kind = camtKind(String(code?.Cd ?? ''), String(code?.Fmly?.Cd ?? ''), String(code?.Fmly?.SubFmlyCd ?? ''));
    const tx = entry.NtryDtls?.TxDtls?.[0] ?? {};
    const parties = tx.RltdPties ?? {};
    const named = parties.Dbtr?.Nm ?? parties.Dbtr?.Pty?.Nm;
    const creditorAccount = parties.CdtrAcct?.Id?.Othr?.Id;
    const reason = tx.RtrInf?.Rsn;
    const description = textOf(tx.RmtInf?.Ustrd);
    return {
      reference,
      date: String(entry.BookgDt?.Dt ?? entry.BookgDt?.DtTm ?? date).slice(0, 10),
      direction: indicator === 'CRDT' ? 'credit' : 'debit',
      amount: centsOf(textOf(entry.Amt) ?? '', `the amount of entry ${reference}`),
      kind,
      accountNumber: creditorAccount === undefined ? null : String(creditorAccount),
      traceNumber: tx.Refs?.ClrSysRef === undefined ? null : String(tx.Refs.ClrSysRef),
      returnCode: reason === undefined ? null : String(reason.Prtry ?? reason.Cd),
      counterparty: named === undefined ? null : String(named),
      description: description === undefined ? null : description,
    };
  });
  const summary = stmt.TxsSummry;
  for (const [what, field, direction] of [
    ['credit', 'TtlCdtNtries', 'credit'],
    ['debit', 'TtlDbtNtries', 'debit'],
  ] as const) {
    const totals = summary?.[field];
    if (totals === undefined) continue;
    const mine = lines.filter((l) => l.direction === direction);
    const count = Number(totals.NbOfNtries);
    if (count !== mine.length)
      throw new StatementRefused(
        `control total mismatch: TxsSummry/${field}/NbOfNtries says ${count}, the file has ${mine.length} ${what} entries`,
      );
    const sum = centsOf(String(totals.Sum), `TxsSummry/${field}/Sum`);
    const counted = mine.reduce((s, l) => s + l.amount, 0);
    if (sum !== counted)
      throw new StatementRefused(
        `control total mismatch: TxsSummry/${field}/Sum says ${decimalOf(sum)}, the ${what} entries add up to ${decimalOf(counted)}`,
      );
  }
  return {
    format: 'camt053',
    account: String(stmt.Acct?.Id?.Othr?.Id ?? stmt.Acct?.Id?.IBAN ?? ''),
    date,
    currency: String(closing.currency ?? stmt.Acct?.Ccy ?? ''),
    opening: opening.cents,
    closing: closing.cents,
    lines,
  };
}

const xmlText = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** One day as camt.053 (the fixtures; docs/deploy.md's example): version `version` (2 to 8). */
export function writeCamt053(statement: Statement, version = 2): string {
  const ccy = statement.currency;
  const amount = (cents: number) => `<Amt Ccy="${ccy}">${decimalOf(Math.abs(cents))}</Amt>`;
  const bal = (code: string, cents: number) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp>${amount(cents)}<CdtDbtInd>${cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${statement.date}</Dt></Dt></Bal>`;
  const totals = (direction: 'credit' | 'debit') => {
    const mine = statement.lines.filter((l) => l.direction === direction);
    return `<NbOfNtries>${mine.length}</NbOfNtries><Sum>${decimalOf(mine.reduce((s, l) => s + l.amount, 0))}</Sum>`;
  };
  const entries = statement.lines.map((line) => {
    const [domain, family, sub] = CAMT_CODE[line.kind];
    const party =
      line.counterparty === null
        ? ''
        : version >= 8
          ? `<Dbtr><Pty><Nm>${xmlText(line.counterparty)}</Nm></Pty></Dbtr>`
          : `<Dbtr><Nm>${xmlText(line.counterparty)}</Nm></Dbtr>`;
    const creditor =
      line.accountNumber === null ? '' : `<CdtrAcct><Id><Othr><Id>${line.accountNumber}</Id></Othr></Id></CdtrAcct>`;
    const parties = party + creditor === '' ? '' : `<RltdPties>${party}${creditor}</RltdPties>`;
    const refs = `<Refs><AcctSvcrRef>${xmlText(line.reference)}</AcctSvcrRef>${line.traceNumber === null ? '' : `<ClrSysRef>${line.traceNumber}</ClrSysRef>`}</Refs>`;
    const remittance = line.description === null ? '' : `<RmtInf><Ustrd>${xmlText(line.description)}</Ustrd></RmtInf>`;
    const returned = line.returnCode === null ? '' : `<RtrInf><Rsn><Prtry>${line.returnCode}</Prtry></Rsn></RtrInf>`;
    const status = version >= 7 ? '<Sts><Cd>BOOK</Cd></Sts>' : '<Sts>BOOK</Sts>';
    return (
      `<Ntry>${amount(line.amount)}<CdtDbtInd>${line.direction === 'credit' ? 'CRDT' : 'DBIT'}</CdtDbtInd>${status}` +
      `<BookgDt><Dt>${line.date}</Dt></BookgDt><AcctSvcrRef>${xmlText(line.reference)}</AcctSvcrRef>` +
      `<BkTxCd><Domn><Cd>${domain}</Cd><Fmly><Cd>${family}</Cd><SubFmlyCd>${sub}</SubFmlyCd></Fmly></Domn></BkTxCd>` +
      `<NtryDtls><TxDtls>${refs}${parties}${remittance}${returned}</TxDtls></NtryDtls></Ntry>`
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.0${version}">`,
    '<BkToCstmrStmt>',
    `<GrpHdr><MsgId>STMT-${statement.date}</MsgId><CreDtTm>${statement.date}T23:59:00</CreDtTm></GrpHdr>`,
    `<Stmt><Id>${statement.date}-${xmlText(statement.account)}</Id><CreDtTm>${statement.date}T23:59:00</CreDtTm>`,
    `<Acct><Id><Othr><Id>${xmlText(statement.account)}</Id></Othr></Id><Ccy>${ccy}</Ccy></Acct>`,
    bal('OPBD', statement.opening),
    bal('CLBD', statement.closing),
    `<TxsSummry><TtlCdtNtries>${totals('credit')}</TtlCdtNtries><TtlDbtNtries>${totals('debit')}</TtlDbtNtries></TxsSummry>`,
    ...entries,
    '</Stmt>',
    '</BkToCstmrStmt>',
    '</Document>',
    '',
  ].join('\n');
}
