package dev.plinth.conformance;

import com.sun.net.httpserver.HttpServer;
import dev.plinth.Created;
import dev.plinth.EventFilter;
import dev.plinth.ListParams;
import dev.plinth.Plinth;
import dev.plinth.PlinthException;
import dev.plinth.RequestFilter;
import dev.plinth.SecretUnavailableException;
import dev.plinth.TransactionFilter;
import dev.plinth.TransferFilter;
import dev.plinth.client.model.Account;
import dev.plinth.client.model.CreateAccountRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What the live scenario cannot provoke, against a scripted server (the JDK's own HttpServer): 503 then 409
 * in-progress then success with one Idempotency-Key, Retry-After waited, other 409s not retried, giving up after
 * max retries, a caller's key wins, refused connections retried, the timeout, the cursors a list sends (starting_after,
 * or ending_before walking newer, with its filter on every page); and the one case where a new key's or
 * endpoint's secret is absent (an idempotent replay), which the live server shows only after a lost answer.
 */
public final class ScriptedTest {
  static final String ACCOUNT = "{\"id\":\"acct_01M81E6QGW6FY4EAZBPP8CJ63K\",\"object\":\"fintech.account\",\"type\":\"business\","
      + "\"country\":\"US\",\"status\":\"active\",\"available_balance\":{\"amount\":0,\"currency\":\"USD\"},\"kyb\":null,"
      + "\"livemode\":false,\"created_at\":\"2026-11-22T10:53Z\"}";

  static String problem(int status, String code) {
    return "{\"type\":\"/docs/errors#" + code + "\",\"title\":\"t\",\"status\":" + status + ",\"detail\":\"d\",\"code\":\""
        + code + "\",\"request_id\":\"req_P" + status + "\"}";
  }

  static final class Reply {
    final int status;
    final String body;
    final Map<String, String> headers;
    final long delayMs;

    Reply(int status, String body, Map<String, String> headers, long delayMs) {
      this.status = status;
      this.body = body;
      this.headers = headers;
      this.delayMs = delayMs;
    }

    static Reply ok() { return new Reply(200, ACCOUNT, Map.of("Request-Id", "req_OK"), 0); }
    static Reply problem(int status, String code, Map<String, String> headers) {
      return new Reply(status, ScriptedTest.problem(status, code), headers, 0);
    }
  }

  static final class Seen {
    final String method;
    final String idempotencyKey;
    final String uri;
    final String body;

    Seen(String method, String idempotencyKey, String uri, String body) {
      this.method = method;
      this.idempotencyKey = idempotencyKey;
      this.uri = uri;
      this.body = body;
    }

    @Override public String toString() { return method + " " + idempotencyKey; }
  }

  static final class Scripted implements AutoCloseable {
    final HttpServer server;
    final ConcurrentLinkedQueue<Reply> script = new ConcurrentLinkedQueue<>();
    final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());

    Scripted(Reply... replies) throws IOException {
      script.addAll(List.of(replies));
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/", ex -> {
        String requestBody = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        seen.add(new Seen(ex.getRequestMethod(), ex.getRequestHeaders().getFirst("Idempotency-Key"),
            ex.getRequestURI().toString(), requestBody));
        Reply r = script.poll();
        if (r == null) r = Reply.ok();
        if (r.delayMs > 0) {
          try { Thread.sleep(r.delayMs); } catch (InterruptedException ignored) { }
        }
        byte[] body = r.body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", r.status == 200 ? "application/json" : "application/problem+json");
        r.headers.forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        ex.sendResponseHeaders(r.status, body.length);
        try (OutputStream out = ex.getResponseBody()) { out.write(body); }
      });
      server.start();
    }

    String url() { return "http://127.0.0.1:" + server.getAddress().getPort(); }

    @Override public void close() { server.stop(0); }
  }

  static Plinth client(String url) {
    return Plinth.builder().apiKey("sk_test_scripted").baseUrl(url).baseDelay(Duration.ofMillis(10)).build();
  }

  static CreateAccountRequest business() {
    return new CreateAccountRequest().type(CreateAccountRequest.TypeEnum.BUSINESS).country("US");
  }

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }

  static PlinthException expectError(Runnable r) {
    try {
      r.run();
    } catch (PlinthException e) {
      return e;
    }
    throw new AssertionError("expected a PlinthException");
  }

  static int failures = 0;

  interface Body { void run() throws Exception; }

  static void test(String name, Body b) {
    try {
      b.run();
      System.out.println("ok   scripted: " + name);
    } catch (Throwable t) {
      failures++;
      System.out.println("FAIL scripted: " + name + ": " + t);
    }
  }

  public static void main(String[] args) {
    test("503 then 409 in-progress then success, one Idempotency-Key", () -> {
      try (Scripted s = new Scripted(Reply.problem(503, "service_unavailable", Map.of("Retry-After", "0")),
          Reply.problem(409, "idempotency_request_in_progress", Map.of()), Reply.ok())) {
        Plinth p = client(s.url());
        Account a = p.accounts().create(business());
        check(a.getId().startsWith("acct_"), "id");
        check(s.seen.size() == 3, "attempts " + s.seen.size());
        String key = s.seen.get(0).idempotencyKey;
        check(key != null && key.matches("[0-9a-f-]{36}"), "key " + key);
        check(s.seen.stream().allMatch(x -> key.equals(x.idempotencyKey)), "keys " + s.seen);
        check(p.retryCount() == 2, "retries " + p.retryCount());
        check("req_OK".equals(p.lastRequestId()), "request id " + p.lastRequestId());
      }
    });

    test("each call gets its own key; a caller's key wins", () -> {
      try (Scripted s = new Scripted()) {
        Plinth p = client(s.url());
        p.accounts().create(business());
        p.accounts().create(business());
        p.accounts().create(business(), Plinth.RequestOptions.idempotencyKey("mine-1"));
        check(!s.seen.get(0).idempotencyKey.equals(s.seen.get(1).idempotencyKey), "same key twice");
        check("mine-1".equals(s.seen.get(2).idempotencyKey), "caller's key " + s.seen.get(2));
      }
    });

    test("Retry-After is waited", () -> {
      try (Scripted s = new Scripted(Reply.problem(429, "rate_limited", Map.of("Retry-After", "1")))) {
        long t0 = System.nanoTime();
        client(s.url()).accounts().retrieve("acct_x");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        check(ms >= 950, "waited only " + ms + " ms");
        check(s.seen.size() == 2, "attempts " + s.seen.size());
      }
    });

    test("other 409s and 4xx are not retried", () -> {
      try (Scripted s = new Scripted(Reply.problem(409, "account_frozen", Map.of()),
          Reply.problem(400, "parameter_invalid", Map.of()))) {
        Plinth p = client(s.url());
        PlinthException e = expectError(() -> p.accounts().create(business()));
        check(e.getStatus() == 409 && "account_frozen".equals(e.getCode()), "got " + e);
        e = expectError(() -> p.accounts().create(business()));
        check(e.getStatus() == 400 && "req_P400".equals(e.getRequestId()), "got " + e);
        check(s.seen.size() == 2 && p.retryCount() == 0, "attempts " + s.seen.size());
      }
    });

    test("gives up after max retries with the last error", () -> {
      Reply r = Reply.problem(503, "service_unavailable", Map.of());
      try (Scripted s = new Scripted(r, r, r, r, r)) {
        Plinth p = client(s.url());
        PlinthException e = expectError(() -> p.accounts().retrieve("acct_x"));
        check(e.getStatus() == 503 && "service_unavailable".equals(e.getCode()), "got " + e);
        check(s.seen.size() == 1 + Plinth.DEFAULT_MAX_RETRIES, "attempts " + s.seen.size());
      }
    });

    test("refused connections are retried, then connection_error", () -> {
      int port;
      try (ServerSocket free = new ServerSocket(0)) { port = free.getLocalPort(); }
      Plinth p = client("http://127.0.0.1:" + port);
      PlinthException e = expectError(() -> p.accounts().create(business()));
      check(e.getStatus() == 0 && "connection_error".equals(e.getCode()), "got " + e);
      check(p.retryCount() == Plinth.DEFAULT_MAX_RETRIES, "retries " + p.retryCount());
    });

    test("the timeout applies", () -> {
      try (Scripted s = new Scripted(new Reply(200, ACCOUNT, Map.of(), 1500))) {
        Plinth p = Plinth.builder().apiKey("sk_test_scripted").baseUrl(s.url()).timeout(Duration.ofMillis(300))
            .maxRetries(0).build();
        long t0 = System.nanoTime();
        PlinthException e = expectError(() -> p.accounts().retrieve("acct_x"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        check(e.getStatus() == 0 && ms < 1400, "got " + e + " after " + ms + " ms");
      }
    });

    test("list follows starting_after (or ending_before, walking newer) with the filter on every page", () -> {
      String page1 = "{\"object\":\"list\",\"data\":[" + ACCOUNT.replace("63K", "633") + "," + ACCOUNT.replace("63K", "632")
          + "],\"has_more\":true}";
      String page2 = "{\"object\":\"list\",\"data\":[" + ACCOUNT.replace("63K", "631") + "],\"has_more\":false}";
      Reply one = new Reply(200, page1, Map.of(), 0);
      Reply two = new Reply(200, page2, Map.of(), 0);
      try (Scripted s = new Scripted(one, two, one, two)) {
        Plinth p = client(s.url());
        List<String> ids = new ArrayList<>();
        for (Account a : p.accounts().list("frozen", new ListParams().limit(2))) ids.add(a.getId().substring(28));
        check(ids.equals(List.of("633", "632", "631")), "ids " + ids);
        for (Account a : p.accounts().list(new ListParams().limit(2).endingBefore("acct_0"))) ids.add(a.getId());
        List<String> uris = new ArrayList<>();
        for (Seen x : s.seen) uris.add(x.uri);
        check(uris.size() == 4, "requests " + uris);
        check(uris.get(0).contains("status=frozen") && uris.get(0).contains("limit=2") && !uris.get(0).contains("starting_after"),
            "first page " + uris.get(0));
        check(uris.get(1).contains("status=frozen") && uris.get(1).contains("starting_after=acct_01M81E6QGW6FY4EAZBPP8CJ632"),
            "second page " + uris.get(1));
        check(uris.get(2).contains("ending_before=acct_0") && uris.get(3).contains("ending_before=acct_01M81E6QGW6FY4EAZBPP8CJ633")
            && !uris.get(3).contains("starting_after"), "walking newer " + uris.subList(2, 4));
      }
    });

    test("filters go out as created[gte]=… and metadata[key]=value on every page", () -> {
      String page1 = "{\"object\":\"list\",\"data\":[" + ACCOUNT.replace("63K", "633") + "],\"has_more\":true}";
      String page2 = "{\"object\":\"list\",\"data\":[" + ACCOUNT.replace("63K", "632") + "],\"has_more\":false}";
      try (Scripted s = new Scripted(new Reply(200, page1, Map.of(), 0), new Reply(200, page2, Map.of(), 0),
          new Reply(200, page2, Map.of(), 0), new Reply(200, page2, Map.of(), 0))) {
        Plinth p = client(s.url());
        int n = 0;
        for (var t : p.transfers().list(new TransferFilter().accountId("acct_1").status("pending")
            .created(new Created().gte("2026-11-24T00:00Z").lt(Instant.parse("2026-11-25T00:00:00Z")))
            .metadata("order id", "A-1/ü"), new ListParams().limit(1))) n++;
        check(n == 2, "transfers " + n);
        p.events().listPage(new EventFilter().type("fintech.transfer.posted").created(new Created().gt("2026-11-24T09:30:00+01:00")), null);
        p.transactions().listPage("acct_1", new TransactionFilter().created(new Created().lte("2026-11-24T00:00Z")), null);
        List<String> uris = new ArrayList<>();
        for (Seen x : s.seen) uris.add(x.uri);
        for (String uri : uris.subList(0, 2)) {
          check(uri.startsWith("/v1/fintech/transfers?") && uri.contains("account_id=acct_1") && uri.contains("status=pending")
              && uri.contains("created[gte]=2026-11-24T00%3A00Z") && uri.contains("created[lt]=2026-11-25T00%3A00%3A00Z")
              && uri.contains("metadata[order%20id]=A-1%2F%C3%BC") && uri.contains("limit=1"), "transfers page " + uri);
        }
        check(uris.get(1).contains("starting_after=acct_01M81E6QGW6FY4EAZBPP8CJ633"), "second page " + uris.get(1));
        check(uris.get(2).startsWith("/v1/events?") && uris.get(2).contains("type=fintech.transfer.posted")
            && uris.get(2).contains("created[gt]=2026-11-24T09%3A30%3A00%2B01%3A00"), "events " + uris.get(2));
        check(uris.get(3).startsWith("/v1/fintech/accounts/acct_1/transactions?")
            && uris.get(3).contains("created[lte]=2026-11-24T00%3A00Z"), "transactions " + uris.get(3));
      }
    });

    test("the request log sends status, method and created[…] on every page, and retrieves by id", () -> {
      String entry = "{\"id\":\"req_2\",\"object\":\"request_log\",\"method\":\"POST\",\"route\":\"/v1/fintech/accounts\","
          + "\"path\":\"/v1/fintech/accounts\",\"status\":409,\"error_code\":\"account_frozen\",\"duration_ms\":1.5,"
          + "\"api_key_id\":\"key_1\",\"api_key_hint\":\"sk_test_…abcd\",\"idempotency_key\":null,\"idempotent_replayed\":false,\"count\":null,"
          + "\"source\":\"api\",\"body\":\"{\\\"type\\\":\\\"business\\\"}\",\"body_truncated\":false,\"response_body\":null,\"response_truncated\":false,\"query\":null,\"bodies_hidden\":false,\"error_detail\":null,\"error_param\":null,\"livemode\":false,"
          + "\"created_at\":\"2026-11-25T09:00:00.000Z\"}";
      String page1 = "{\"object\":\"list\",\"data\":[" + entry + "],\"has_more\":true}";
      String page2 = "{\"object\":\"list\",\"data\":[],\"has_more\":false}";
      try (Scripted s = new Scripted(new Reply(200, page1, Map.of(), 0), new Reply(200, page2, Map.of(), 0),
          new Reply(200, entry, Map.of(), 0))) {
        Plinth p = client(s.url());
        int n = 0;
        for (var r : p.requests().list(new RequestFilter().status("409").method("POST")
            .created(new Created().gte(Instant.parse("2026-11-25T09:00:00Z")).lt("2026-11-26T00:00Z")), new ListParams().limit(1))) n++;
        check(n == 1, "entries " + n);
        var one = p.requests().retrieve("req_2");
        check("req_2".equals(one.getId()) && "{\"type\":\"business\"}".equals(one.getBody()) && one.getStatus() == 409, "retrieved " + one);
        List<String> uris = new ArrayList<>();
        for (Seen x : s.seen) uris.add(x.uri);
        String filters = "limit=1&status=409&method=POST&created[gte]=2026-11-25T09%3A00%3A00Z&created[lt]=2026-11-26T00%3A00Z";
        check(uris.equals(List.of("/v1/requests?" + filters, "/v1/requests?" + filters.replace("limit=1&", "limit=1&starting_after=req_2&"),
            "/v1/requests/req_2")), "requests " + uris);
      }
    });

    test("metadata updates send changes or \"\", a post its amount or nothing", () -> {
      try (Scripted s = new Scripted()) {
        Plinth p = client(s.url());
        Map<String, String> changes = new LinkedHashMap<>();
        changes.put("customer", "c-42");
        changes.put("old", "");
        p.accounts().update("acct_1", changes);
        p.accounts().clearMetadata("acct_1");
        p.transfers().update("tr_1", Map.of("order", ""));
        p.transfers().clearMetadata("tr_1");
        p.webhookEndpoints().clearMetadata("we_1");
        p.transfers().post("tr_1");
        p.transfers().post("tr_1", 2500L);
        p.transfers().voidTransfer("tr_1");
        p.sandbox().expireTransfer("tr_1");
        List<String> sent = new ArrayList<>();
        for (Seen x : s.seen) sent.add(x.method + " " + x.uri + " " + x.body);
        List<String> expected = List.of(
            "POST /v1/fintech/accounts/acct_1 {\"metadata\":{\"customer\":\"c-42\",\"old\":\"\"}}",
            "POST /v1/fintech/accounts/acct_1 {\"metadata\":\"\"}",
            "POST /v1/fintech/transfers/tr_1 {\"metadata\":{\"order\":\"\"}}",
            "POST /v1/fintech/transfers/tr_1 {\"metadata\":\"\"}",
            "POST /v1/webhook_endpoints/we_1 {\"metadata\":\"\"}",
            "POST /v1/fintech/transfers/tr_1/post {}",
            "POST /v1/fintech/transfers/tr_1/post {\"amount\":2500}",
            "POST /v1/fintech/transfers/tr_1/void ",
            "POST /v1/sandbox/fintech/transfers/tr_1/expire ");
        check(sent.equals(expected), "sent " + sent);
        for (Seen x : s.seen) check(x.idempotencyKey != null, "no Idempotency-Key on " + x.uri);
      }
    });

    test("a secret is a plain string; an idempotent replay says it has none", () -> {
      String key = "{\"id\":\"key_01M81E6QGW6FY4EAZBPP8CJ63K\",\"object\":\"api_key\",\"mode\":\"sandbox\","
          + "\"hint\":\"sk_test_…abcd\",\"name\":null,\"livemode\":false,\"created_at\":\"2026-11-22T10:53Z\","
          + "\"revoked_at\":null,\"last_used_at\":null,\"permissions\":null,\"key\":";
      String endpoint = "{\"id\":\"we_01M81E6QGW6FY4EAZBPP8CJ63K\",\"object\":\"webhook_endpoint\","
          + "\"url\":\"https://example.com/h\",\"enabled_events\":[\"*\"],\"description\":null,\"status\":\"enabled\","
          + "\"disabled_reason\":null,\"livemode\":false,\"created_at\":\"2026-11-22T10:53Z\",\"secret\":";
      Map<String, String> replayed = Map.of("Idempotent-Replayed", "true");
      try (Scripted s = new Scripted(new Reply(200, key + "\"sk_test_abcd\"}", Map.of(), 0),
          new Reply(200, key + "null}", replayed, 0), new Reply(200, endpoint + "null}", replayed, 0))) {
        Plinth p = client(s.url());
        var fresh = p.apiKeys().create();
        check(!fresh.isReplayed() && "sk_test_abcd".equals(fresh.getKey()), "fresh " + fresh);
        var again = p.apiKeys().create(null, Plinth.RequestOptions.idempotencyKey("k"));
        check(again.isReplayed() && "key_01M81E6QGW6FY4EAZBPP8CJ63K".equals(again.getId()), "replay " + again);
        try {
          again.getKey();
          throw new AssertionError("getKey() of a replay returned");
        } catch (SecretUnavailableException e) {
          check(again.getId().equals(e.getObjectId()) && e.getMessage().contains("revoke"), "message " + e.getMessage());
        }
        var rotated = p.webhookEndpoints().rotateSecret("we_01M81E6QGW6FY4EAZBPP8CJ63K");
        try {
          rotated.getSecret();
          throw new AssertionError("getSecret() of a replay returned");
        } catch (SecretUnavailableException e) {
          check(rotated.isReplayed() && e.getMessage().contains("rotate"), "message " + e.getMessage());
        }
      }
    });

    // docs/api.md#bank-account-numbers-and-payments: the 12 digits are in the create answer only.
    test("an account number is a plain string once; an idempotent replay says it has none", () -> {
      String number = "{\"id\":\"an_1\",\"object\":\"fintech.account_number\",\"account_id\":\"acct_1\","
          + "\"routing_number\":\"110000000\",\"account_number_last4\":\"9012\",\"name\":null,"
          + "\"status\":\"active\",\"inbound_debits\":\"allowed\",\"livemode\":false,"
          + "\"created_at\":\"2026-11-28T10:00Z\",\"account_number\":";
      Map<String, String> replayed = Map.of("Idempotent-Replayed", "true");
      try (Scripted s = new Scripted(new Reply(200, number + "\"123456789012\"}", Map.of(), 0),
          new Reply(200, number + "null}", replayed, 0), new Reply(200, number + "null}", Map.of(), 0))) {
        Plinth p = client(s.url());
        var request = new dev.plinth.client.model.CreateAccountNumberRequest().accountId("acct_1");
        var fresh = p.accountNumbers().create(request);
        check(!fresh.isReplayed() && "123456789012".equals(fresh.getAccountNumber()), "fresh " + fresh);
        check(!fresh.toString().contains("123456789012"), "toString shows the number: " + fresh);
        var again = p.accountNumbers().create(request, Plinth.RequestOptions.idempotencyKey("k"));
        check(again.isReplayed() && "9012".equals(again.getAccountNumberLast4()), "replay " + again);
        try {
          again.getAccountNumber();
          throw new AssertionError("getAccountNumber() of a replay returned");
        } catch (SecretUnavailableException e) {
          check("an_1".equals(e.getObjectId()) && e.getMessage().contains("disable"), "message " + e.getMessage());
        }
        check(p.accountNumbers().retrieve("an_1").getAccountNumber() == null, "retrieved");
      }
    });

    ScriptedMoney.run();
    ScriptedKeys.run();
    System.exit(failures == 0 ? 0 : 1);
  }
}
