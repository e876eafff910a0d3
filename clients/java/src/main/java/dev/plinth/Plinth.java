package dev.plinth;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plinth.client.ApiClient;
import dev.plinth.client.ApiException;
import dev.plinth.client.ApiResponse;
import dev.plinth.client.api.ApiKeysApi;
import dev.plinth.client.api.FintechAccountsApi;
import dev.plinth.client.api.FintechTransactionsApi;
import dev.plinth.client.api.FintechTransfersApi;
import dev.plinth.client.model.Account;
import dev.plinth.client.model.AccountList;
import dev.plinth.client.model.ApiKey;
import dev.plinth.client.model.ApiKeyList;
import dev.plinth.client.model.CreateAccountRequest;
import dev.plinth.client.model.CreateApiKeyRequest;
import dev.plinth.client.model.CreateTransferRequest;
import dev.plinth.client.model.NewApiKey;
import dev.plinth.client.model.SandboxSignup;
import dev.plinth.client.model.SandboxSignupRequest;
import dev.plinth.client.model.SimulateDepositRequest;
import dev.plinth.client.model.Transaction;
import dev.plinth.client.model.TransactionList;
import dev.plinth.client.model.Transfer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The Plinth client: the generated API classes ({@code dev.plinth.client.api.*}) behind a small layer that retries,
 * sends idempotency keys, paginates, and turns every failure into one {@link PlinthException}.
 *
 * <pre>{@code
 * Plinth plinth = Plinth.builder().apiKey("sk_test_...").baseUrl("http://127.0.0.1:8080").build();
 * Account a = plinth.accounts().create(new CreateAccountRequest().type(CreateAccountRequest.TypeEnum.BUSINESS).country("US"));
 * for (Account each : plinth.accounts().list(100)) { ... }
 * }</pre>
 */
public final class Plinth {
  public static final String DEFAULT_BASE_URL = "http://127.0.0.1:8080";
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
  public static final int DEFAULT_MAX_RETRIES = 3;

  private final ApiClient apiClient;
  private final AtomicLong retries = new AtomicLong();
  private final ThreadLocal<String> lastRequestId = new ThreadLocal<>();
  private final Accounts accounts;
  private final ApiKeys apiKeys;
  private final Transfers transfers;
  private final Sandbox sandbox;

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
    this.accounts = new Accounts();
    this.apiKeys = new ApiKeys();
    this.transfers = new Transfers();
    this.sandbox = new Sandbox();
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

  /** The configured generated client, for any operation the layer does not wrap (retries still apply). */
  public ApiClient apiClient() { return apiClient; }

  /** The {@code Request-Id} of the last response this thread received (success or error), or null. */
  public String lastRequestId() { return lastRequestId.get(); }

  /** How many retries this client has made so far (all threads). */
  public long retryCount() { return retries.get(); }

  public Accounts accounts() { return accounts; }

  public ApiKeys apiKeys() { return apiKeys; }

  public Transfers transfers() { return transfers; }

  /** Simulations that only sandbox keys may run. */
  public Sandbox sandbox() { return sandbox; }

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

  private static String key(RequestOptions o) {
    return o == null ? null : o.idempotencyKey;
  }

  /** Fintech accounts. */
  public final class Accounts {
    private final FintechAccountsApi api = new FintechAccountsApi(apiClient);

    public Account create(CreateAccountRequest params) { return create(params, null); }

    public Account create(CreateAccountRequest params, RequestOptions options) {
      return call(() -> api.createAccountWithHttpInfo(params, key(options)));
    }

    public Account retrieve(String id) {
      return call(() -> api.retrieveAccountWithHttpInfo(id));
    }

    /** One page. */
    public AccountList listPage(Integer limit, String startingAfter) {
      return call(() -> api.listAccountsWithHttpInfo(limit, startingAfter, null, null));
    }

    /** Every account, newest first, fetching pages of {@code pageSize} as the iteration goes. */
    public Iterable<Account> list(Integer pageSize) {
      return paginate(after -> listPage(pageSize, after), AccountList::getData, AccountList::getHasMore, Account::getId);
    }

    private final FintechTransactionsApi transactionsApi = new FintechTransactionsApi(apiClient);

    /** One page of an account's transactions, newest first. */
    public TransactionList transactionsPage(String id, Integer limit, String startingAfter) {
      return call(() -> transactionsApi.listAccountTransactionsWithHttpInfo(id, limit, startingAfter, null));
    }

    /** Every transaction of an account, newest first, fetching pages of {@code pageSize} as the iteration goes. */
    public Iterable<Transaction> transactions(String id, Integer pageSize) {
      return paginate(after -> transactionsPage(id, pageSize, after), TransactionList::getData,
          TransactionList::getHasMore, Transaction::getId);
    }
  }

  /** Fintech transfers. */
  public final class Transfers {
    private final FintechTransfersApi api = new FintechTransfersApi(apiClient);

    /** Synchronous: the {@code posted} transfer. One Idempotency-Key, reused by retries, so money moves once. */
    public Transfer create(CreateTransferRequest params) { return create(params, null); }

    public Transfer create(CreateTransferRequest params, RequestOptions options) {
      return call(() -> api.createTransferWithHttpInfo(params, key(options)));
    }

    public Transfer retrieve(String id) {
      return call(() -> api.retrieveTransferWithHttpInfo(id));
    }
  }

  /** Sandbox simulations. */
  public final class Sandbox {
    private final FintechTransactionsApi api = new FintechTransactionsApi(apiClient);

    /** Money in from nowhere, for testing: the credit transaction. */
    public Transaction deposit(String accountId, SimulateDepositRequest params) { return deposit(accountId, params, null); }

    public Transaction deposit(String accountId, SimulateDepositRequest params, RequestOptions options) {
      return call(() -> api.simulateDepositWithHttpInfo(accountId, params, key(options)));
    }
  }

  /** API keys of the caller's organisation. */
  public final class ApiKeys {
    private final ApiKeysApi api = new ApiKeysApi(apiClient);

    public NewApiKey create(CreateApiKeyRequest params, RequestOptions options) {
      return call(() -> api.createApiKeyWithHttpInfo(key(options), params));
    }

    public ApiKey revoke(String id) {
      return call(() -> api.revokeApiKeyWithHttpInfo(id, null));
    }

    public ApiKeyList listPage(Integer limit, String startingAfter) {
      return call(() -> api.listApiKeysWithHttpInfo(limit, startingAfter, null));
    }

    public Iterable<ApiKey> list(Integer pageSize) {
      return paginate(after -> listPage(pageSize, after), ApiKeyList::getData, ApiKeyList::getHasMore, ApiKey::getId);
    }
  }

  /** {@code POST /v1/sandbox/signup} (no key needed): a new sandbox organisation and its first key. */
  public static SandboxSignup signup(String baseUrl, String name) {
    Plinth anonymous = builder().baseUrl(baseUrl).build();
    ApiKeysApi api = new ApiKeysApi(anonymous.apiClient);
    SandboxSignupRequest req = new SandboxSignupRequest().name(name);
    return anonymous.call(() -> api.sandboxSignupWithHttpInfo(req));
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
    try {
      return c.run().getData();
    } catch (ApiException e) {
      throw toPlinthException(e, apiClient.getObjectMapper());
    }
  }

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

  /** Auto-pagination over any list operation: {@code starting_after} = the last id while {@code has_more}. */
  public static <L, T> Iterable<T> paginate(Function<String, L> fetch, Function<L, List<T>> data,
      Function<L, Boolean> hasMore, Function<T, String> id) {
    return () -> new Iterator<T>() {
      private Iterator<T> page = null;
      private String after = null;
      private boolean more = true;

      public boolean hasNext() {
        while ((page == null || !page.hasNext()) && more) {
          L list = fetch.apply(after);
          List<T> items = data.apply(list);
          more = Boolean.TRUE.equals(hasMore.apply(list)) && items != null && !items.isEmpty();
          if (items != null && !items.isEmpty()) after = id.apply(items.get(items.size() - 1));
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
