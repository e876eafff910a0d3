/**
 * Lists, in two forms with the same names on every resource: `list(params)` iterates every item, newest first,
 * fetching pages of `limit` as the loop consumes them (`for await (const a of plinth.accounts.list())`), and
 * `listPage(params)` returns one page (`data`, `has_more`) for callers that keep their own cursor.
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

/** Where an iteration starts and the size of the pages it fetches. */
export type ListParams = Omit<PageParams, 'ending_before'>;

/** PageParams as the generated request objects name them. */
export function pageQuery(params: PageParams): { limit?: number; startingAfter?: string; endingBefore?: string } {
  return { limit: params.limit, startingAfter: params.starting_after, endingBefore: params.ending_before };
}

/** Every item of every page: each page starts after the last id of the one before, until `has_more` is false. */
export async function* autoPage<T extends { id: string }>(
  fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>,
  startingAfter?: string,
): AsyncGenerator<T, void, undefined> {
  let cursor = startingAfter;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    const last = page.data.at(-1);
    // An empty page with has_more would loop forever on the same cursor; stop instead.
    if (!page.has_more || last === undefined) return;
    cursor = last.id;
  }
}
