/**
 * Lists, in two forms with the same names on every resource: `list(params)` iterates every item, fetching pages
 * of `limit` as the loop consumes them (`for await (const a of plinth.accounts.list())`), and `listPage(params)`
 * returns one page (`data`, `has_more`) for callers that keep their own cursor. Every page is newest first.
 */
export interface Page<T> {
  data: T[];
  has_more: boolean;
}

/** Where a page starts and how long it is. */
export interface PageParams {
  /** Page size, 1–100. */
  limit?: number;
  /** An id: the items just older than it. */
  starting_after?: string;
  /** An id: the items just newer than it (still newest first). */
  ending_before?: string;
}

/**
 * Where an iteration starts and the size of the pages it fetches: from `starting_after` (or the newest) the pages
 * walk older; from `ending_before` they walk newer, each page ending before the first id of the one before.
 */
export type ListParams = PageParams;

type Cursor = Pick<PageParams, 'starting_after' | 'ending_before'>;

/** PageParams as the generated request objects name them. */
export function pageQuery(params: PageParams): { limit?: number; startingAfter?: string; endingBefore?: string } {
  return { limit: params.limit, startingAfter: params.starting_after, endingBefore: params.ending_before };
}

/** Every item of every page, following the cursor from page to page until `has_more` is false. */
export async function* autoPage<T extends { id: string }>(
  fetchPage: (cursor: Cursor) => Promise<Page<T>>,
  start: Cursor,
): AsyncGenerator<T, void, undefined> {
  const newer = start.ending_before !== undefined;
  let cursor: Cursor = newer ? { ending_before: start.ending_before } : { starting_after: start.starting_after };
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    const edge = newer ? page.data[0] : page.data.at(-1);
    // An empty page with has_more would loop forever on the same cursor; stop instead.
    if (!page.has_more || edge === undefined) return;
    cursor = newer ? { ending_before: edge.id } : { starting_after: edge.id };
  }
}
