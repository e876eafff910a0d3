package dev.plinth;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plinth.client.ApiClient;
import dev.plinth.client.ApiException;
import dev.plinth.client.ApiResponse;
import dev.plinth.client.api.ApiKeysApi;
import dev.plinth.client.model.SandboxSignup;
import dev.plinth.client.model.SandboxSignupRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Plinth client: one method per API operation, grouped by resource, over the generated API classes
 * ({@code dev.plinth.client.api.*}); it retries, sends idempotency keys, paginates, and turns every failure into one
 * {@link PlinthException}.
 *
 * <pre>{@code
 * Plinth plinth = Plinth.builder().apiKey("sk_test_...").baseUrl("http://127.0.0.1:8080").build();
 * Account a = plinth.accounts().create(new CreateAccountRequest().type(CreateAccountRequest.TypeEnum.BUSINESS).country("US"));
 * for (Account each : plinth.accounts().list()) { ... }
 * }</pre>
 */
public final class Plinth {
  public static final String DEFAULT_BASE_URL = "http://127.0.0.1:8080";
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MAX_RETRIES = 3;

  private final ApiClient apiClient;
  private final AtomicLong retries = new AtomicLong();
  private final ThreadLocal<String> lastRequestId = new ThreadLocal<>();
  private final ApiKeys apiKeys;
  private final Accounts accounts;
  private final Transactions transactions;
  private final Transfers transfers;
  private final Sandbox sandbox;
  private final Events events;
  private final WebhookEndpoints webhookEndpoints;
  private final WebhookDeliveries webhookDeliveries;
  private final Requests requests;
  private final AccountNumbers accountNumbers;
  private final ExternalAccounts externalAccounts;
  private final Payments payments;
  private final Audit audit;

  private Plinth(Builder b) {
    ObjectMapper mapper = ApiClient.createDefaultObjectMapper()
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
        .configure(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE, true)
        .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);
    HttpClient.Builder http = RetryingHttpClient.builder(
        HttpClient.newBuilder().connectTimeout(b.timeout), b.maxRetries, b.baseDelay, retries, lastRequestId);
    this.apiClient = new ApiClient(http, mapper, b.baseUrl.replaceAll("/+$", ""));
    apiClient.setReadTimeout(b.timeout);
    final String key = b.apiKey;
    if (key != null) {
      apiClient.setRequestInterceptor(req -> req.header("Authorization", "Bearer " + key));
    }
    this.apiKeys = new ApiKeys(this);
    this.accounts = new Accounts(this);
    this.transactions = new Transactions(this);
    this.transfers = new Transfers(this);
    this.sandbox = new Sandbox(this);
    this.events = new Events(this);
    this.webhookEndpoints = new WebhookEndpoints(this);
    this.webhookDeliveries = new WebhookDeliveries(this);
    this.requests = new Requests(this);
    this.accountNumbers = new AccountNumbers(this);
    this.externalAccounts = new ExternalAccounts(this);
    this.payments = new Payments(this);
    this.audit = new Audit(this);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Settings: API key, base URL, timeout (default 30 s) and retries (default 3). */
  public static final class Builder {
    private String apiKey;
    private String baseUrl = DEFAULT_BASE_URL;
    private Duration timeout = DEFAULT_TIMEOUT;
    private int maxRetries = DEFAULT_MAX_RETRIES;
    private Duration baseDelay = Duration.ofMillis(500);

    public Builder apiKey(String apiKey) { this.apiKey = apiKey; return this; }
    public Builder baseUrl(String baseUrl) { this.baseUrl = Objects.requireNonNull(baseUrl); return this; }
    /** Connect and per-request timeout. */
    public Builder timeout(Duration timeout) { this.timeout = Objects.requireNonNull(timeout); return this; }
    public Builder maxRetries(int maxRetries) { this.maxRetries = Math.max(0, maxRetries); return this; }
    /** First backoff step when the server gives no Retry-After (doubles per attempt, with jitter). */
    public Builder baseDelay(Duration baseDelay) { this.baseDelay = Objects.requireNonNull(baseDelay); return this; }
    public Plinth build() { return new Plinth(this); }
  }

  /** {@code POST /v1/sandbox/signup} (no key needed): a new sandbox organisation and its first key. */
  public static SignUp signUp(String baseUrl) {
    return signUp(baseUrl, null);
  }

  /** The same, naming the first key ({@code name} may be null). */
  public static SignUp signUp(String baseUrl, String name) {
    Plinth anonymous = builder().baseUrl(baseUrl).build();
    ApiKeysApi api = new ApiKeysApi(anonymous.apiClient);
    SandboxSignupRequest req = new SandboxSignupRequest().name(name);
    ApiResponse<SandboxSignup> r = anonymous.send(() -> api.sandboxSignupWithHttpInfo(req));
    return new SignUp(r.getData().getOrgId(), new CreatedApiKey(r.getData().getApiKey(), replayed(r)));
  }

  /** The configured generated client, for any operation the layer does not wrap (retries still apply). */
  public ApiClient apiClient() { return apiClient; }

  /** The {@code Request-Id} of the last response this thread received (success or error), or null. */
  public String lastRequestId() { return lastRequestId.get(); }

  /** How many retries this client has made so far (all threads). */
  public long retryCount() { return retries.get(); }

  public ApiKeys apiKeys() { return apiKeys; }

  public Accounts accounts() { return accounts; }

  public Transactions transactions() { return transactions; }

  public Transfers transfers() { return transfers; }

  /** Simulations that only sandbox keys may run. */
  public Sandbox sandbox() { return sandbox; }

  public Events events() { return events; }

  public WebhookEndpoints webhookEndpoints() { return webhookEndpoints; }

  public WebhookDeliveries webhookDeliveries() { return webhookDeliveries; }

  /** The request log: what was asked with this organisation's keys, and what it was answered. */
  public Requests requests() { return requests; }

  /** An account's bank account numbers (its 12 digits shown once, at creation). */
  public AccountNumbers accountNumbers() { return accountNumbers; }

  /** Accounts at other banks that payments go to. */
  public ExternalAccounts externalAccounts() { return externalAccounts; }

  /** Money sent (and received) over ACH, wire and RTP. */
  public Payments payments() { return payments; }

  /** The hash chain of events, its signed checkpoint and the key that signs it. */
  public Audit audit() { return audit; }

  /** Per-call options: an explicit Idempotency-Key (else one is generated per call and reused on retries). */
  public static final class RequestOptions {
    private String idempotencyKey;

    public static RequestOptions idempotencyKey(String key) {
      RequestOptions o = new RequestOptions();
      o.idempotencyKey = key;
      return o;
    }

    public String getIdempotencyKey() { return idempotencyKey; }
  }

  static String key(RequestOptions o) {
    return o == null ? null : o.idempotencyKey;
  }

  /**
   * The lowest level: any method and path with any JSON body (a Map, a model, or null), decoded into
   * {@code type}. Retries, idempotency keys and errors work as for every other call.
   */
  public <T> T request(String method, String path, Object body, Class<T> type) {
    return request(method, path, body, type, null);
  }

  public <T> T request(String method, String path, Object body, Class<T> type, RequestOptions options) {
    ObjectMapper mapper = apiClient.getObjectMapper();
    HttpRequest.Builder rb = HttpRequest.newBuilder(URI.create(apiClient.getBaseUri() + path))
        .header("Accept", "application/json")
        .timeout(apiClient.getReadTimeout());
    try {
      if (body != null) {
        rb.header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofByteArray(mapper.writeValueAsBytes(body)));
      } else {
        rb.method(method, HttpRequest.BodyPublishers.noBody());
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("body is not serialisable to JSON", e);
    }
    if (key(options) != null) rb.header("Idempotency-Key", key(options));
    if (apiClient.getRequestInterceptor() != null) apiClient.getRequestInterceptor().accept(rb);
    return call(() -> {
      try {
        HttpResponse<byte[]> resp = apiClient.getHttpClient().send(rb.build(), HttpResponse.BodyHandlers.ofByteArray());
        String text = new String(resp.body(), StandardCharsets.UTF_8);
        if (resp.statusCode() / 100 != 2) {
          throw new ApiException(resp.statusCode(), "HTTP " + resp.statusCode(), resp.headers(), text);
        }
        T value = text.isBlank() ? null : mapper.readValue(text, type);
        return new ApiResponse<>(resp.statusCode(), resp.headers().map(), value);
      } catch (IOException e) {
        throw new ApiException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ApiException(e);
      }
    });
  }

  /** A generated {@code ...WithHttpInfo} call. */
  @FunctionalInterface
  public interface Call<T> {
    ApiResponse<T> run() throws ApiException;
  }

  /** Runs a generated call: returns its body, or throws the one {@link PlinthException}. */
  public <T> T call(Call<T> c) {
    return send(c).getData();
  }

  /** Runs a generated call: the whole response (status, headers, body), or the one {@link PlinthException}. */
  <T> ApiResponse<T> send(Call<T> c) {
    try {
      return c.run();
    } catch (ApiException e) {
      throw Problems.toPlinthException(e, apiClient.getObjectMapper());
    }
  }

  /** {@code Idempotent-Replayed: true}: the stored answer of an earlier request with the same key. */
  static boolean replayed(ApiResponse<?> r) {
    Map<String, List<String>> headers = r.getHeaders();
    if (headers == null) return false;
    for (Map.Entry<String, List<String>> h : headers.entrySet()) {
      if ("Idempotent-Replayed".equalsIgnoreCase(h.getKey()) && h.getValue().contains("true")) return true;
    }
    return false;
  }
}
