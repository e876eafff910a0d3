package dev.plinth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plinth.client.ApiException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Turns what the generated client throws into the one {@link PlinthException}. */
final class Problems {
  private Problems() {}

  static PlinthException toPlinthException(ApiException e, ObjectMapper mapper) {
    Map<String, List<String>> headers = e.getResponseHeaders() == null ? Map.of() : e.getResponseHeaders().map();
    String requestId = e.getResponseHeaders() == null ? null
        : e.getResponseHeaders().firstValue("Request-Id").orElse(null);
    if (e.getCode() == 0) {
      return new PlinthException(0, "connection_error", null, null, null, null, "Connection error",
          String.valueOf(e.getCause() != null ? e.getCause() : e.getMessage()), headers, null, e);
    }
    String body = e.getResponseBody();
    JsonNode p = null;
    try {
      p = body == null || body.isBlank() ? null : mapper.readTree(body);
    } catch (IOException ignored) {
      // not JSON: keep the status, code unknown
    }
    if (p == null || !p.isObject()) {
      return new PlinthException(e.getCode(), "unknown", null, null, requestId, null, null, body, headers, body, e);
    }
    List<PlinthException.ErrorDetail> errors = new ArrayList<>();
    for (JsonNode d : p.path("errors")) {
      errors.add(new PlinthException.ErrorDetail(text(d, "code"), text(d, "param"), text(d, "detail")));
    }
    String rid = text(p, "request_id");
    return new PlinthException(e.getCode(), text(p, "code") != null ? text(p, "code") : "unknown", text(p, "param"),
        errors, rid != null ? rid : requestId, text(p, "type"), text(p, "title"), text(p, "detail"), headers, body, e);
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
