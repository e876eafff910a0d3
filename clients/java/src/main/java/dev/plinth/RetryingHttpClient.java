package dev.plinth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;

/**
 * The transport under every generated call: a {@link HttpClient} that
 * <ul>
 *   <li>sends no {@code Content-Type} with an empty body (Plinth refuses an empty JSON body);</li>
 *   <li>adds one {@code Idempotency-Key} (UUID v4) to every authenticated POST that has none, and sends that same key on every
 *       attempt of the call;</li>
 *   <li>retries connection errors and timeouts, 409 {@code idempotency_request_in_progress}, 429 and 5xx, at most
 *       {@code maxRetries} times, waiting {@code Retry-After} seconds when the server says so, else an exponential
 *       backoff with full jitter;</li>
 *   <li>records the {@code Request-Id} of the last response on the calling thread.</li>
 * </ul>
 * The generated {@code ApiClient} gets it through {@link #builder}; nothing in {@code generated/} is edited.
 */
public final class RetryingHttpClient extends HttpClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration MAX_WAIT = Duration.ofSeconds(60);

  private final HttpClient delegate;
  private final int maxRetries;
  private final Duration baseDelay;
  private final AtomicLong retries;
  private final ThreadLocal<String> lastRequestId;

  RetryingHttpClient(HttpClient delegate, int maxRetries, Duration baseDelay, AtomicLong retries,
      ThreadLocal<String> lastRequestId) {
    this.delegate = delegate;
    this.maxRetries = maxRetries;
    this.baseDelay = baseDelay;
    this.retries = retries;
    this.lastRequestId = lastRequestId;
  }

  /** A builder whose {@code build()} wraps the real client; for {@code ApiClient.setHttpClientBuilder}. */
  static HttpClient.Builder builder(HttpClient.Builder real, int maxRetries, Duration baseDelay, AtomicLong retries,
      ThreadLocal<String> lastRequestId) {
    return new WrappingBuilder(real, maxRetries, baseDelay, retries, lastRequestId);
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    HttpRequest req = withIdempotencyKey(withoutEmptyBodyContentType(request));
    // A POST without a key (only the unauthenticated sign-up, which refuses one) is retried only where the
    // server cannot have executed it: a refused connection or a 429.
    boolean safe = !"POST".equals(req.method()) || req.headers().firstValue("Idempotency-Key").isPresent();
    for (int attempt = 0; ; attempt++) {
      HttpResponse<byte[]> resp;
      try {
        resp = delegate.send(req, HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        if (attempt >= maxRetries || !(safe || e instanceof java.net.ConnectException)) throw e;
        pause(null, attempt);
        continue;
      }
      resp.headers().firstValue("Request-Id").ifPresent(lastRequestId::set);
      if (attempt < maxRetries && (safe || resp.statusCode() == 429) && shouldRetry(resp)) {
        pause(resp.headers().firstValue("Retry-After").orElse(null), attempt);
        continue;
      }
      return adapt(resp, handler);
    }
  }

  static boolean shouldRetry(HttpResponse<byte[]> resp) {
    int s = resp.statusCode();
    if (s == 429 || s >= 500) return true;
    if (s == 409) {
      try {
        JsonNode body = JSON.readTree(resp.body());
        return body != null && "idempotency_request_in_progress".equals(body.path("code").asText());
      } catch (IOException e) {
        return false;
      }
    }
    return false;
  }

  private void pause(String retryAfter, int attempt) throws InterruptedException {
    retries.incrementAndGet();
    long ms = -1;
    if (retryAfter != null) {
      try {
        ms = Math.min(Long.parseLong(retryAfter.trim()) * 1000L, MAX_WAIT.toMillis());
      } catch (NumberFormatException ignored) {
        // an HTTP-date or garbage: fall back to backoff
      }
    }
    if (ms < 0) {
      long cap = baseDelay.toMillis() * (1L << Math.min(attempt, 10));
      ms = ThreadLocalRandom.current().nextLong(cap / 2, cap + 1);
    }
    Thread.sleep(ms);
  }

  /** A POST without a body must not claim to be JSON: Plinth refuses an empty application/json body. */
  private static HttpRequest withoutEmptyBodyContentType(HttpRequest request) {
    boolean empty = request.bodyPublisher().map(p -> p.contentLength() == 0).orElse(true);
    if (!empty || request.headers().firstValue("Content-Type").isEmpty()) return request;
    return copy(request, "Content-Type").build();
  }

  /** A builder for the same request, without the named header. */
  private static HttpRequest.Builder copy(HttpRequest request, String dropHeader) {
    HttpRequest.Builder copy = HttpRequest.newBuilder(request.uri())
        .method(request.method(), request.bodyPublisher().orElse(HttpRequest.BodyPublishers.noBody()))
        .expectContinue(request.expectContinue());
    request.timeout().ifPresent(copy::timeout);
    request.version().ifPresent(copy::version);
    request.headers().map().forEach((name, values) -> {
      if (!name.equalsIgnoreCase(dropHeader)) values.forEach(v -> copy.header(name, v));
    });
    return copy;
  }

  private static HttpRequest withIdempotencyKey(HttpRequest request) {
    if (!"POST".equals(request.method()) || request.headers().firstValue("Idempotency-Key").isPresent()
        || request.headers().firstValue("Authorization").isEmpty()) {
      return request;
    }
    return copy(request, "Idempotency-Key").header("Idempotency-Key", UUID.randomUUID().toString()).build();
  }

  /** Hands the buffered body to the caller's body handler, as if it had streamed in. */
  private static <T> HttpResponse<T> adapt(HttpResponse<byte[]> resp, HttpResponse.BodyHandler<T> handler)
      throws IOException {
    HttpResponse.ResponseInfo info = new HttpResponse.ResponseInfo() {
      public int statusCode() { return resp.statusCode(); }
      public HttpHeaders headers() { return resp.headers(); }
      public HttpClient.Version version() { return resp.version(); }
    };
    HttpResponse.BodySubscriber<T> sub = handler.apply(info);
    sub.onSubscribe(new Flow.Subscription() {
      public void request(long n) {}
      public void cancel() {}
    });
    byte[] bytes = resp.body() == null ? new byte[0] : resp.body();
    if (bytes.length > 0) sub.onNext(List.of(ByteBuffer.wrap(bytes)));
    sub.onComplete();
    T body;
    try {
      body = sub.getBody().toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    } catch (ExecutionException e) {
      throw new IOException(e.getCause());
    }
    return new HttpResponse<T>() {
      public int statusCode() { return resp.statusCode(); }
      public HttpRequest request() { return resp.request(); }
      public Optional<HttpResponse<T>> previousResponse() { return Optional.empty(); }
      public HttpHeaders headers() { return resp.headers(); }
      public T body() { return body; }
      public Optional<SSLSession> sslSession() { return resp.sslSession(); }
      public URI uri() { return resp.uri(); }
      public HttpClient.Version version() { return resp.version(); }
    };
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return send(request, handler);
      } catch (IOException e) {
        throw new java.util.concurrent.CompletionException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.util.concurrent.CompletionException(e);
      }
    }, delegate.executor().orElse(java.util.concurrent.ForkJoinPool.commonPool()));
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
      HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
    return sendAsync(request, handler);
  }

  @Override public Optional<CookieHandler> cookieHandler() { return delegate.cookieHandler(); }
  @Override public Optional<Duration> connectTimeout() { return delegate.connectTimeout(); }
  @Override public Redirect followRedirects() { return delegate.followRedirects(); }
  @Override public Optional<ProxySelector> proxy() { return delegate.proxy(); }
  @Override public SSLContext sslContext() { return delegate.sslContext(); }
  @Override public SSLParameters sslParameters() { return delegate.sslParameters(); }
  @Override public Optional<Authenticator> authenticator() { return delegate.authenticator(); }
  @Override public Version version() { return delegate.version(); }
  @Override public Optional<Executor> executor() { return delegate.executor(); }

  private static final class WrappingBuilder implements HttpClient.Builder {
    private final HttpClient.Builder real;
    private final int maxRetries;
    private final Duration baseDelay;
    private final AtomicLong retries;
    private final ThreadLocal<String> lastRequestId;
    private HttpClient built;

    WrappingBuilder(HttpClient.Builder real, int maxRetries, Duration baseDelay, AtomicLong retries,
        ThreadLocal<String> lastRequestId) {
      this.real = real;
      this.maxRetries = maxRetries;
      this.baseDelay = baseDelay;
      this.retries = retries;
      this.lastRequestId = lastRequestId;
    }

    public Builder cookieHandler(CookieHandler h) { real.cookieHandler(h); built = null; return this; }
    public Builder connectTimeout(Duration d) { real.connectTimeout(d); built = null; return this; }
    public Builder sslContext(SSLContext c) { real.sslContext(c); built = null; return this; }
    public Builder sslParameters(SSLParameters p) { real.sslParameters(p); built = null; return this; }
    public Builder executor(Executor e) { real.executor(e); built = null; return this; }
    public Builder followRedirects(Redirect r) { real.followRedirects(r); built = null; return this; }
    public Builder version(Version v) { real.version(v); built = null; return this; }
    public Builder priority(int p) { real.priority(p); built = null; return this; }
    public Builder proxy(ProxySelector s) { real.proxy(s); built = null; return this; }
    public Builder authenticator(Authenticator a) { real.authenticator(a); built = null; return this; }

    /** One shared connection pool for every generated API object (ApiClient builds a client per API class). */
    public synchronized HttpClient build() {
      if (built == null) {
        built = new RetryingHttpClient(real.build(), maxRetries, baseDelay, retries, lastRequestId);
      }
      return built;
    }
  }
}
