import { parseBai2 } from './bai2.ts';
import { parseCamt053 } from './camt053.ts';
import { parseCsv } from './csv.ts';
import { checkStatement, type Statement, type StatementFormat, StatementRefused } from './statement.ts';

/** The format by its first bytes when none is given: XML is camt.053, `01,` BAI2, anything else CSV. */
export function detectFormat(text: string): StatementFormat {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return 'camt053';
  if (start.startsWith('01,')) return 'bai2';
  return 'csv';
}

/** A file read into one statement and checked (docs/deploy.md, "Statements in"); StatementRefused when it does not add up. */
export function readStatement(text: string, format?: StatementFormat, map?: string): Statement {
  const chosen = format ?? detectFormat(text);
  if (map !== undefined && chosen !== 'csv') throw new StatementRefused('--map is for CSV files only');
  const statement =
    chosen === 'camt053' ? parseCamt053(text) : chosen === 'bai2' ? parseBai2(text) : parseCsv(text, map);
  return checkStatement(statement);
}
