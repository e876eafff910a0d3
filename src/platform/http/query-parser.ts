import querystring from 'fast-querystring';

const BRACKETED = /^([a-z_]+)\[([^[\]]+)\]$/;

/**
 * The query string as the routes read it: `name[key]=value` (OpenAPI's `deepObject` style, as Stripe writes
 * `created[gte]=…` and `metadata[order_id]=…`) becomes `{ name: { key: value } }`; every other name stays as it is.
 * Objects have no prototype (a `metadata[__proto__]` is only a key). A name given both bare and bracketed, or a
 * bracketed key given twice, stays repeated and is refused as such (http/query.ts).
 */
export function parseQuery(text: string): Record<string, unknown> {
  const flat = querystring.parse(text) as Record<string, unknown>;
  const parsed: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(flat)) {
    const match = BRACKETED.exec(name);
    if (match === null) {
      parsed[name] = name in parsed ? [parsed[name], value] : value;
      continue;
    }
    const [, outer, inner] = match as unknown as [string, string, string];
    let group = parsed[outer];
    if (group === undefined) {
      group = Object.create(null);
      parsed[outer] = group;
    }
    if (typeof group !== 'object' || group === null || Array.isArray(group)) {
      parsed[outer] = [group, value];
      continue;
    }
    const target = group as Record<string, unknown>;
    target[inner] = inner in target ? [target[inner], value].flat() : value;
  }
  return parsed;
}
