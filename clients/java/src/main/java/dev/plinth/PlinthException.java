package dev.plinth;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The one error every Plinth call raises: an RFC 9457 problem from the server (status, code, param, errors,
 * request_id, title, detail), or a transport failure after all retries ({@link #getStatus()} 0, code
 * {@code connection_error}). {@code code} is an open string: switch on the codes you know, and treat any other one
 * by its status.
 */
public class PlinthException extends RuntimeException {
  /** One entry of the problem's {@code errors} list. */
  public static final class ErrorDetail {
    private final String code;
    private final String param;
    private final String detail;

    public ErrorDetail(String code, String param, String detail) {
      this.code = code;
      this.param = param;
      this.detail = detail;
    }

    public String getCode() { return code; }
    public String getParam() { return param; }
    public String getDetail() { return detail; }

    @Override
    public String toString() {
      return code + (param != null ? " (" + param + ")" : "") + ": " + detail;
    }
  }

  private final int status;
  private final String code;
  private final String param;
  private final List<ErrorDetail> errors;
  private final String requestId;
  private final String type;
  private final String title;
  private final String detail;
  private final Map<String, List<String>> headers;
  private final String rawBody;

  public PlinthException(int status, String code, String param, List<ErrorDetail> errors, String requestId,
      String type, String title, String detail, Map<String, List<String>> headers, String rawBody, Throwable cause) {
    super(status + " " + code + (detail != null ? ": " + detail : "") + (requestId != null ? " [" + requestId + "]" : ""), cause);
    this.status = status;
    this.code = code;
    this.param = param;
    this.errors = errors == null ? Collections.emptyList() : Collections.unmodifiableList(errors);
    this.requestId = requestId;
    this.type = type;
    this.title = title;
    this.detail = detail;
    this.headers = headers == null ? Collections.emptyMap() : headers;
    this.rawBody = rawBody;
  }

  /** The HTTP status; 0 when no response arrived (connection error or timeout after every retry). */
  public int getStatus() { return status; }
  /** The problem's {@code code}: an open string (the server's list grows). */
  public String getCode() { return code; }
  /** The first offending input (dotted field path or header name), or null. */
  public String getParam() { return param; }
  /** Every offending input; empty when the problem has none. */
  public List<ErrorDetail> getErrors() { return errors; }
  /** The problem's {@code request_id} (equal to the {@code Request-Id} header), or null. */
  public String getRequestId() { return requestId; }
  public String getType() { return type; }
  public String getTitle() { return title; }
  public String getDetail() { return detail; }
  public Map<String, List<String>> getHeaders() { return headers; }
  /** The response body as received, for debugging. */
  public String getRawBody() { return rawBody; }
}
