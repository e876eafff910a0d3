/**
 * CSV as RFC 4180 writes it (no CSV library is a dependency; these few lines are all it takes): fields joined by
 * commas, lines ended by CRLF, a field quoted when it holds a comma, a double quote, a CR or an LF, its quotes doubled.
 */

/** A spreadsheet runs a cell that begins with one of these as a formula (OWASP's "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a person typed (a description), made inert: a leading `=`, `+`, `-`, `@`, tab or CR gets a `'` before it. */
export const inert = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export const csvLine = (fields: string[]): string => `${fields.map(csvField).join(',')}\r\n`;
