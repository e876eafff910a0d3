/**
 * List iteration: pages are fetched as the caller consumes them, each starting after the last id of the
 * previous one, until a page says `has_more: false`.
 */
export interface Page<T> {
  data: T[];
  has_more: boolean;
}

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
