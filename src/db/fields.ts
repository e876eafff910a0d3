/**
 * Readers of a row's fields into a statement's parameter list, compiled once per list of names. A loop that reads
 * `row[name]` for every name of a list is a keyed load that sees every name, on V8's megamorphic path for each value
 * of every statement (a create binds about 90, a request-log batch 24 per entry); a function with one named load per
 * field reads each from the row's shape directly.
 */

/** Copies the named fields of `row` into `out` from `at` on; returns the index after the last. */
export type FieldsInto = (row: object, out: unknown[], at: number, rowIndex: number) => number;

/**
 * `names` read in order into `out`. `check`: a field that is undefined throws (`prepared: no value for name.row`, as
 * a missing value of a compiled statement does), instead of being bound as it is.
 */
export function fieldsInto(names: readonly string[], check: boolean): FieldsInto {
  const missing = (name: string, rowIndex: number) => {
    throw new Error(`prepared: no value for ${name}.${rowIndex}`);
  };
  const reads = names.map((name) => {
    const key = JSON.stringify(name);
    return check ? `v = r[${key}]; if (v === undefined) missing(${key}, i); out[at++] = v;` : `out[at++] = r[${key}];`;
  });
  const source = `return function fieldsInto(r, out, at, i) {\n  let v;\n  ${reads.join('\n  ')}\n  return at;\n};`;
  return new Function('missing', source)(missing) as FieldsInto;
}

/** A statement's parameters: each the named field of the values given (never undefined), or a constant of its own. */
export type Parameters = (values: object) => unknown[];

export function parametersReader(slots: readonly ({ name: string } | { constant: unknown })[]): Parameters {
  const missing = (name: string) => {
    throw new Error(`prepared: no value for ${name}`);
  };
  const constants = slots.map((slot) => ('constant' in slot ? slot.constant : undefined));
  const reads = slots.map((slot, i) => {
    if (!('name' in slot)) return `out[${i}] = c[${i}];`;
    const key = JSON.stringify(slot.name);
    return `v = r[${key}]; if (v === undefined) missing(${key}); out[${i}] = v;`;
  });
  const source = `return function parameters(r) {\n  const out = new Array(${slots.length});\n  let v;\n  ${reads.join('\n  ')}\n  return out;\n};`;
  return new Function('missing', 'c', source)(missing, constants) as Parameters;
}
