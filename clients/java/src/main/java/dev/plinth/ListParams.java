package dev.plinth;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * Where a list starts and how big its pages are: {@code new ListParams().limit(100).startingAfter("acct_…")}.
 * For a {@code list} method (every page) {@code limit} is the page size; for a {@code listPage} method it is the
 * page. Filters ({@code status}, {@code type}, …) are parameters of the list methods themselves.
 */
public final class ListParams {
  private Integer limit;
  private String startingAfter;
  private String endingBefore;

  /** 1–100 objects per page; unset: the server's default (10). */
  public ListParams limit(Integer limit) { this.limit = limit; return this; }
  /** Objects older than this id. */
  public ListParams startingAfter(String id) { this.startingAfter = id; return this; }
  /** Objects newer than this id; a {@code list} then walks towards the newest. */
  public ListParams endingBefore(String id) { this.endingBefore = id; return this; }

  public Integer getLimit() { return limit; }
  public String getStartingAfter() { return startingAfter; }
  public String getEndingBefore() { return endingBefore; }

  static ListParams orDefault(ListParams p) {
    return p == null ? new ListParams() : p;
  }

  /** One page request: the cursor to send. */
  interface Fetch<L> {
    L page(ListParams cursor);
  }

  /**
   * Auto-pagination: {@code starting_after} = the last id of a page while {@code has_more}, or, when the caller
   * began with {@code ending_before}, {@code ending_before} = the first id of the page (the pages walk newer).
   */
  static <L, T> Iterable<T> paginate(ListParams start, Fetch<L> fetch, Function<L, List<T>> data,
      Function<L, Boolean> hasMore, Function<T, String> id) {
    ListParams first = orDefault(start);
    boolean backwards = first.endingBefore != null;
    return () -> new Iterator<T>() {
      private Iterator<T> page = null;
      private ListParams cursor = new ListParams().limit(first.limit)
          .startingAfter(first.startingAfter).endingBefore(first.endingBefore);
      private boolean more = true;

      public boolean hasNext() {
        while ((page == null || !page.hasNext()) && more) {
          L list = fetch.page(cursor);
          List<T> items = data.apply(list);
          more = Boolean.TRUE.equals(hasMore.apply(list)) && items != null && !items.isEmpty();
          if (more) {
            cursor = backwards
                ? new ListParams().limit(first.limit).endingBefore(id.apply(items.get(0)))
                : new ListParams().limit(first.limit).startingAfter(id.apply(items.get(items.size() - 1)));
          }
          page = items == null ? List.<T>of().iterator() : items.iterator();
        }
        return page != null && page.hasNext();
      }

      public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return page.next();
      }
    };
  }
}
