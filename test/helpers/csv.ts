/**
 * A strict RFC 4180 parser for the tests (no CSV library is a dependency): records end with CRLF, fields are
 * separated by commas, a field holding a comma, a quote, a CR or an LF is quoted and its quotes doubled. Anything
 * else (a bare quote, a bare CR or LF, text after a closing quote, records of different lengths) throws.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`CSV at ${i}: ${why} (${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))})`);
  };
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      for (i++; ; i++) {
        if (i >= text.length) fail('a quoted field never ends');
        if (text[i] !== '"') field += text[i];
        else if (text[i + 1] === '"') field += text[i++];
        else break;
      }
      i++;
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"' || text[i] === '\n') fail('a quote or LF in an unquoted field');
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ',') i++;
    else if (text.startsWith('\r\n', i)) {
      i += 2;
      if (records.length > 0 && record.length !== records[0]!.length) fail('a record of another length');
      records.push(record);
      record = [];
    } else fail('a field is followed by neither a comma nor CRLF');
  }
  if (record.length > 0) fail('the last record does not end with CRLF');
  return records;
}
