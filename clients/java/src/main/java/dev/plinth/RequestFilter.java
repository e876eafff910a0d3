package dev.plinth;

/**
 * The filters of {@code requests().list} and {@code listPage}, optional and combined:
 * {@code new RequestFilter().method("POST").status(409).created(new Created().gte(t))}.
 */
public final class RequestFilter {
  private String status;
  private String method;
  private Created created;

  /** Only answers with this HTTP status, e.g. 409. */
  public RequestFilter status(Integer status) { this.status = status == null ? null : status.toString(); return this; }

  /** Only answers with this status or of this class: {@code "409"}, or {@code "2xx"}, {@code "4xx"}, {@code "5xx"}. */
  public RequestFilter status(String status) { this.status = status; return this; }
  /** Only requests with this method: {@code GET}, {@code HEAD}, {@code POST} or {@code DELETE}. */
  public RequestFilter method(String method) { this.method = method; return this; }
  /** Only requests made within these bounds. */
  public RequestFilter created(Created created) { this.created = created; return this; }

  public String getStatus() { return status; }
  public String getMethod() { return method; }
  public Created getCreated() { return created; }

  static RequestFilter orDefault(RequestFilter f) { return f == null ? new RequestFilter() : f; }
}
