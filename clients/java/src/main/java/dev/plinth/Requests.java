package dev.plinth;

import dev.plinth.client.api.RequestsApi;
import dev.plinth.client.model.RequestLog;
import dev.plinth.client.model.RequestLogList;

/**
 * The request log (docs/api.md#the-request-log): every request made with the organisation's keys, newest first. An
 * entry is written a few hundred milliseconds after its answer, so a request just made may not be listed yet.
 */
public final class Requests {
  private final Plinth plinth;
  private final RequestsApi api;

  Requests(Plinth plinth) {
    this.plinth = plinth;
    this.api = new RequestsApi(plinth.apiClient());
  }

  /** {@code listRequests}: every recorded request, newest first, a page at a time. */
  public Iterable<RequestLog> list() { return list(null, null); }

  public Iterable<RequestLog> list(ListParams page) { return list(null, page); }

  public Iterable<RequestLog> list(RequestFilter filter) { return list(filter, null); }

  /** Only the requests {@code filter} admits (status, method, created), on every page. */
  public Iterable<RequestLog> list(RequestFilter filter, ListParams page) {
    return ListParams.paginate(page, cursor -> listPage(filter, cursor), RequestLogList::getData,
        RequestLogList::getHasMore, RequestLog::getId);
  }

  /** {@code listRequests}: one page. */
  public RequestLogList listPage() { return listPage(null, null); }

  public RequestLogList listPage(ListParams page) { return listPage(null, page); }

  public RequestLogList listPage(RequestFilter filter, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    RequestFilter f = RequestFilter.orDefault(filter);
    return plinth.call(() -> api.listRequestsWithHttpInfo(p.getLimit(), p.getStartingAfter(), p.getEndingBefore(),
        f.getStatus(), f.getMethod(), Created.forLists(f.getCreated())));
  }

  /** {@code retrieveRequest}: one request, with its body, by the {@code Request-Id} of its answer. */
  public RequestLog retrieve(String id) {
    return plinth.call(() -> api.retrieveRequestWithHttpInfo(id));
  }
}
