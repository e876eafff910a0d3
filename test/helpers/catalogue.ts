import { readFileSync } from 'node:fs';

/**
 * The error catalogue as the README's table states it, written by hand: `[code, status]` rows. Tests compare the
 * code's list (ERROR_CODES), the OpenAPI document and /docs/errors against it, an expectation the code does not make.
 */
export function readmeErrorCatalogue(): [string, number][] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split('## Error catalogue')[1]!.split('\n## ')[0]!;
  return [...section.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map((m) => [m[2]!, Number(m[1])]);
}
