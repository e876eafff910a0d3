package dev.plinth.conformance;

import dev.plinth.CreatedWebhookEndpoint;
import dev.plinth.ListParams;
import dev.plinth.Plinth;
import dev.plinth.PlinthException;
import dev.plinth.Webhook;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plinth.client.model.Account;
import dev.plinth.client.model.CreateAccountRequest;
import dev.plinth.client.model.CreateAccountRequestKyb;
import dev.plinth.client.model.CreateTransferRequest;
import dev.plinth.client.model.CreateWebhookEndpointRequest;
import dev.plinth.client.model.Event;
import dev.plinth.client.model.SimulateDepositRequest;
import dev.plinth.client.model.Transaction;
import dev.plinth.client.model.Transfer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The clients conformance scenario (clients/README.md, steps 1–24), through the Java client's public API. */
public final class Conformance {
  private static final String URL = env("PLINTH_URL");
  private static final String PROXY_URL = env("PLINTH_PROXY_URL");
  private static final String LIMITED_URL = env("PLINTH_LIMITED_URL");
  private static final String RECEIVER_URL = env("PLINTH_RECEIVER_URL");

  private static String env(String name) {
    String v = System.getenv(name);
    if (v == null || v.isEmpty()) throw new IllegalStateException(name + " is not set");
    return v;
  }

  private static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }

  private static PlinthException expectError(Runnable r) {
    try {
      r.run();
    } catch (PlinthException e) {
      return e;
    }
    throw new AssertionError("expected a PlinthException");
  }

  private static CreateAccountRequest business(String country) {
    return new CreateAccountRequest().type(CreateAccountRequest.TypeEnum.BUSINESS).country(country);
  }

  interface Step { void run() throws Exception; }

  private static int failures = 0;

  private static void step(String name, Step s) {
    try {
      s.run();
      System.out.println("ok   " + name);
    } catch (Throwable t) {
      failures++;
      System.out.println("FAIL " + name + ": " + t);
    }
  }

  public static void main(String[] args) {
    final String[] key = new String[1];
    final Plinth[] client = new Plinth[1];
    final List<String> created = new ArrayList<>();
    final String[] transferId = new String[1];
    final String[] firstRequestId = new String[1]; // step 2's create, which step 22 finds in the request log
    final String[] endpointId = new String[1];
    final String[] endpointSecret = new String[1];
    final String[] testEventId = new String[1];

    step("1 sign up", () -> {
      key[0] = Plinth.signUp(URL).getKey();
      check(key[0] != null && key[0].startsWith("sk_test_"), "sandbox key: " + key[0]);
      client[0] = Plinth.builder().apiKey(key[0]).baseUrl(URL).build();
    });
    if (client[0] == null) System.exit(1);
    Plinth plinth = client[0];

    step("2 create account, Request-Id exposed", () -> {
      Account a = plinth.accounts().create(business("US"));
      check("active".equals(a.getStatus()), "status " + a.getStatus());
      check(a.getAvailableBalance().getAmount() == 0, "amount " + a.getAvailableBalance().getAmount());
      check("USD".equals(a.getAvailableBalance().getCurrency()), "currency");
      check(a.getId().startsWith("acct_"), "id " + a.getId());
      String rid = plinth.lastRequestId();
      check(rid != null && rid.startsWith("req_"), "request id " + rid);
      firstRequestId[0] = rid;
      created.add(a.getId());
    });

    step("3 create with kyb", () -> {
      Account a = plinth.accounts().create(business("US")
          .kyb(new CreateAccountRequestKyb().ein("12-3456789").legalName("Acme Corp")));
      check(a.getKyb() != null && "6789".equals(a.getKyb().getEinLast4()), "kyb " + a.getKyb());
      created.add(a.getId());
    });

    step("4 retrieve", () -> {
      Account a = plinth.accounts().retrieve(created.get(0));
      check(created.get(0).equals(a.getId()), "id " + a.getId());
    });

    step("4a deposit (sandbox)", () -> {
      Transaction t = plinth.sandbox().deposit(created.get(0), new SimulateDepositRequest().amount(10000L));
      check(t.getId().startsWith("txn_"), "id " + t.getId());
      check(t.getAmount() == 10000L && t.getBalanceAfter() == 10000L, "amount " + t.getAmount() + " balance_after " + t.getBalanceAfter());
    });

    step("4b transfer (the client's own Idempotency-Key)", () -> {
      Transfer t = plinth.transfers().create(new CreateTransferRequest()
          .fromAccountId(created.get(0)).toAccountId(created.get(1)).amount(2500L).currency("USD"));
      check(t.getId().startsWith("tr_"), "id " + t.getId());
      check("posted".equals(t.getStatus()) && t.getAmount() == 2500L, "status " + t.getStatus() + " amount " + t.getAmount());
      transferId[0] = t.getId();
    });

    step("4c iterate the transactions", () -> {
      List<String> moves = new ArrayList<>();
      for (Transaction t : plinth.transactions().list(created.get(0), new ListParams().limit(1))) moves.add(t.getAmount() + "/" + t.getBalanceAfter());
      check(moves.equals(List.of("-2500/7500", "10000/10000")), "transactions (amount/balance_after) " + moves);
    });

    step("4d insufficient funds -> 409 with param", () -> {
      PlinthException e = expectError(() -> plinth.transfers().create(new CreateTransferRequest()
          .fromAccountId(created.get(0)).toAccountId(created.get(1)).amount(999999L).currency("USD")));
      check(e.getStatus() == 409, "status " + e.getStatus());
      check("insufficient_funds".equals(e.getCode()), "code " + e.getCode());
      check("from_account_id".equals(e.getParam()), "param " + e.getParam());
      check(e.getRequestId() != null && e.getRequestId().startsWith("req_"), "request_id " + e.getRequestId());
    });

    final String idemKey = "conformance-" + UUID.randomUUID();
    step("5 idempotent replay", () -> {
      Account a = plinth.accounts().create(business("US"), Plinth.RequestOptions.idempotencyKey(idemKey));
      Account b = plinth.accounts().create(business("US"), Plinth.RequestOptions.idempotencyKey(idemKey));
      check(a.getId().equals(b.getId()), a.getId() + " != " + b.getId());
      created.add(a.getId());
    });

    step("6 key reused with another body -> 422", () -> {
      PlinthException e = expectError(() ->
          plinth.accounts().create(business("CA"), Plinth.RequestOptions.idempotencyKey(idemKey)));
      check(e.getStatus() == 422, "status " + e.getStatus());
      check("idempotency_key_reused".equals(e.getCode()), "code " + e.getCode());
      check(e.getRequestId() != null && e.getRequestId().startsWith("req_"), "request_id " + e.getRequestId());
    });

    step("7 bad key -> 401", () -> {
      Plinth bad = Plinth.builder().apiKey("sk_test_" + "A".repeat(38)).baseUrl(URL).build();
      PlinthException e = expectError(() -> bad.accounts().retrieve(created.get(0)));
      check(e.getStatus() == 401, "status " + e.getStatus());
      check("api_key_invalid".equals(e.getCode()), "code " + e.getCode());
    });

    step("8 unknown field -> 400 parameter_unknown", () -> {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("type", "business");
      body.put("country", "US");
      body.put("colour", "red");
      PlinthException e = expectError(() -> plinth.request("POST", "/v1/fintech/accounts", body, Account.class));
      check(e.getStatus() == 400, "status " + e.getStatus());
      check("parameter_unknown".equals(e.getCode()), "code " + e.getCode());
      check("colour".equals(e.getParam()), "param " + e.getParam());
      check(!e.getErrors().isEmpty(), "errors empty");
    });

    step("9 auto-pagination", () -> {
      List<String> seen = new ArrayList<>();
      for (Account a : plinth.accounts().list(new ListParams().limit(1))) seen.add(a.getId());
      List<String> expected = new ArrayList<>(created);
      java.util.Collections.reverse(expected);
      check(seen.size() == new HashSet<>(seen).size(), "duplicates " + seen);
      check(seen.equals(expected), "listed " + seen + " expected " + expected);
    });

    step("10 429 retried honouring Retry-After", () -> {
      String limitedKey = Plinth.signUp(LIMITED_URL).getKey();
      Plinth limited = Plinth.builder().apiKey(limitedKey).baseUrl(LIMITED_URL).build();
      for (int i = 0; i < 6; i++) limited.accounts().listPage(new ListParams().limit(1));
      check(limited.retryCount() >= 1, "no retry happened");
    });

    step("11 tolerant decoding through the rewriting proxy", () -> {
      Plinth proxied = Plinth.builder().apiKey(key[0]).baseUrl(PROXY_URL).build();
      Account a = proxied.accounts().retrieve(created.get(0));
      check(created.get(0).equals(a.getId()), "id " + a.getId());
      check("dormant".equals(a.getStatus()), "status " + a.getStatus());
      int n = 0;
      for (Account each : proxied.accounts().list(new ListParams().limit(2))) n++;
      check(n == created.size(), "listed " + n);
      PlinthException e = expectError(() -> proxied.accounts().retrieve("acct_" + "0".repeat(26)));
      check(e.getStatus() == 404, "status " + e.getStatus());
      check("future_error_code".equals(e.getCode()), "code " + e.getCode());
    });

    step("12 a webhook delivery verifies with its secret, not with a changed body or another secret", () -> {
      CreatedWebhookEndpoint endpoint = plinth.webhookEndpoints().create(
          new CreateWebhookEndpointRequest().url(RECEIVER_URL + "/hook").enabledEvents(java.util.Set.of("*")));
      String secret = endpoint.getSecret();
      check(secret.startsWith("whsec_"), "secret " + secret);
      endpointId[0] = endpoint.getId();
      endpointSecret[0] = secret;
      Event event = plinth.webhookEndpoints().test(endpoint.getId());
      testEventId[0] = event.getId();
      check("webhook_endpoint.test".equals(event.getType()), "type " + event.getType());
      HttpClient http = HttpClient.newHttpClient();
      ObjectMapper json = new ObjectMapper();
      Map<String, Object> delivery = null;
      for (long deadline = System.nanoTime() + 10_000_000_000L; delivery == null && System.nanoTime() < deadline; ) {
        String answer = http.send(HttpRequest.newBuilder(URI.create(RECEIVER_URL + "/deliveries?event=" + event.getId())).build(),
            HttpResponse.BodyHandlers.ofString()).body();
        List<Map<String, Object>> found = json.readValue(answer, new TypeReference<List<Map<String, Object>>>() {});
        if (!found.isEmpty()) delivery = found.get(0);
        else Thread.sleep(100);
      }
      check(delivery != null, "no delivery of " + event.getId() + " within 10 s");
      @SuppressWarnings("unchecked")
      Map<String, String> headers = (Map<String, String>) delivery.get("headers");
      String body = (String) delivery.get("body");
      Event verified = Webhook.verify(secret, headers, body);
      check(event.getId().equals(verified.getId()), "verified id " + verified.getId());
      check("webhook_endpoint.test".equals(verified.getType()), "verified type " + verified.getType());
      byte[] changed = body.getBytes(StandardCharsets.UTF_8);
      int i = body.indexOf(event.getId()) + 4; // a character of the id
      changed[i] = (byte) (changed[i] == '0' ? '1' : '0');
      byte[] seven = new byte[32];
      Arrays.fill(seven, (byte) 7);
      String other = "whsec_" + Base64.getEncoder().encodeToString(seven);
      for (Object[] wrong : new Object[][] {{secret, changed}, {other, body.getBytes(StandardCharsets.UTF_8)}}) {
        try {
          Webhook.verify((String) wrong[0], headers, (byte[]) wrong[1]);
          throw new AssertionError("a changed body or another secret verified");
        } catch (Webhook.VerificationException e) {
          check("signature_mismatch".equals(e.getReason()), "reason " + e.getReason());
        }
      }
    });

    Steps13To19.run(plinth, created, transferId[0], endpointId[0], endpointSecret[0], testEventId[0]);
    Steps20To21.run(plinth, created, RECEIVER_URL);
    Step22.run(plinth, firstRequestId[0]);
    Step23.run(plinth);
    Step24.run(plinth, URL);
    Step25.run(plinth, key[0], PROXY_URL);
    Step26.run(plinth);
    Step27.run(plinth);
    System.exit(failures == 0 ? 0 : 1);
  }

  static void steps(String name, Step s) { step(name, s); }
  static void ensure(boolean ok, String what) { check(ok, what); }
  static PlinthException error(Runnable r) { return expectError(r); }
  static CreateAccountRequest businessUS() { return business("US"); }
}
