/** The path to every string of a body (the every-route suite puts a lone surrogate into each, issue 30). */
export function stringPaths(value: unknown, at: string[] = []): string[][] {
  if (typeof value === 'string') return [at];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
}

/** A copy of the body with a lone UTF-16 surrogate added to the string at `at`. */
export function withSurrogate(body: object, at: string[]): object {
  const copy = structuredClone(body) as Record<string, any>;
  const parent = at.slice(0, -1).reduce((object, k) => object[k], copy);
  parent[at.at(-1)!] += '\ud800';
  return copy;
}
