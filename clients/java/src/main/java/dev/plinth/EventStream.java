package dev.plinth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.plinth.client.ApiClient;
import dev.plinth.client.ApiException;
import dev.plinth.client.model.Event;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The live event stream ({@code GET /v1/events/stream}, Server-Sent Events; docs/api.md#the-live-event-stream) as a
 * blocking iterator that resumes by itself: {@link Events#stream(Params)}. Each event carries its {@code sequence},
 * gap-free per organisation and mode; after any disconnection (a network failure, the server restarting or ending
 * the stream) it reconnects with {@code Last-Event-ID} set to the last sequence it saw, so every event comes once, in
 * order. {@link #hasNext()} blocks until the next event. Close it (try-with-resources, or {@link #close()} from any
 * thread) to stop: the connection ends and {@code hasNext()} answers false. A refusal that waiting will not change (a
 * revoked key: 401; a bad parameter: 400) throws {@link PlinthException}; 429 and 5xx are waited out
 * ({@code Retry-After}, else backoff).
 *
 * <pre>{@code
 * try (EventStream events = plinth.events().stream(new EventStream.Params().type("fintech.transfer.posted"))) {
 *   for (Event event : events) System.out.println(event.getSequence() + " " + event.getType());
 * }
 * }</pre>
 */
public final class EventStream implements Iterator<Event>, Iterable<Event>, AutoCloseable {
  /** What a stream yields: a type filter and a starting point. */
  public static final class Params {
    private String type;
    private Long after;
    private GapListener onGap;

    /** Only events of this type (e.g. {@code fintech.account.created}). */
    public Params type(String type) { this.type = type; return this; }

    /** Start after this sequence (0: every event still kept); by default with the next event. */
    public Params after(Long after) { this.after = after; return this; }

    /** Told which sequences the server no longer keeps when the starting point is older than its retention. */
    public Params onGap(GapListener onGap) { this.onGap = onGap; return this; }
  }

  /** Told about an {@code event: gap}: the events {@code from} to {@code to} are gone; the stream carries on. */
  @FunctionalInterface
  public interface GapListener {
    void gap(long from, long to);
  }

  private static final long FIRST_DELAY_MS = 250;
  private static final long MAX_DELAY_MS = 8_000;
  /** The server writes a comment every 15 s: a connection silent for much longer than that is dead. */
  private static final long READ_TIMEOUT_MS = 45_000;

  private final HttpClient http;
  private final URI uri;
  private final Consumer<HttpRequest.Builder> authorize;
  private final ObjectMapper mapper;
  private final GapListener onGap;
  private final ScheduledExecutorService watchdog;
  private Long last;
  private long firstDelay = FIRST_DELAY_MS;
  private long delay = FIRST_DELAY_MS;
  private Event next;
  private volatile boolean closed;
  private volatile InputStream body;
  private volatile long lastRead;

  /** The client's base URI, key (its request interceptor), JSON mapper and timeout (to connect); no retrying client. */
  EventStream(ApiClient client, Params params) {
    Params p = params == null ? new Params() : params;
    this.http = HttpClient.newBuilder().connectTimeout(client.getReadTimeout()).build();
    String query = p.type == null ? "" : "?type=" + URLEncoder.encode(p.type, StandardCharsets.UTF_8);
    this.uri = URI.create(client.getBaseUri() + "/v1/events/stream" + query);
    this.authorize = client.getRequestInterceptor();
    this.mapper = client.getObjectMapper();
    this.onGap = p.onGap;
    this.last = p.after;
    this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "plinth-event-stream-watchdog");
      t.setDaemon(true);
      return t;
    });
    watchdog.scheduleWithFixedDelay(() -> {
      InputStream open = body;
      if (open != null && System.currentTimeMillis() - lastRead > READ_TIMEOUT_MS) closeQuietly(open);
    }, 5, 5, TimeUnit.SECONDS);
  }

  @Override
  public Iterator<Event> iterator() { return this; }

  /** Blocks until the next event; false once closed. */
  @Override
  public boolean hasNext() {
    while (next == null && !closed) {
      long wait = connect();
      if (next != null || closed) break;
      if (wait < 0) {
        wait = delay;
        delay = Math.min(delay * 2, MAX_DELAY_MS);
      }
      try {
        Thread.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        close();
      }
    }
    return next != null;
  }

  @Override
  public Event next() {
    if (!hasNext()) throw new NoSuchElementException("the event stream is closed");
    Event event = next;
    next = null;
    return event;
  }

  /** The last sequence seen: where the stream would resume. */
  public Long lastSequence() { return last; }

  /** Ends the connection and the iteration; safe from any thread, and more than once. */
  @Override
  public void close() {
    closed = true;
    watchdog.shutdownNow();
    InputStream open = body;
    if (open != null) closeQuietly(open);
  }

  private final List<String> data = new ArrayList<>();
  private String id;
  private String eventType;
  private boolean hasId;
  private boolean hasData;

  /**
   * Reads from the open connection (opening one first when none is) until the next event; returns how long to
   * wait before reconnecting (-1: the backoff) when the connection ended first. Throws what waiting will not fix.
   */
  private long connect() {
    if (body == null) {
      HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET()
          .header("Accept", "text/event-stream")
          .header("User-Agent", "plinth-java");
      if (authorize != null) authorize.accept(request);
      if (last != null) request.header("Last-Event-ID", String.valueOf(last));
      HttpResponse<InputStream> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      } catch (IOException e) {
        return -1; // refused or dropped: reconnect
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        close();
        return 0;
      }
      int status = response.statusCode();
      if (status == 429 || status >= 500) {
        closeQuietly(response.body());
        String retryAfter = response.headers().firstValue("Retry-After").orElse("");
        return retryAfter.matches("\\d{1,5}") && Long.parseLong(retryAfter) > 0 ? Long.parseLong(retryAfter) * 1000 : -1;
      }
      if (status != 200) throw refusal(status, response.headers(), response.body());
      delay = firstDelay;
      lastRead = System.currentTimeMillis();
      body = response.body();
      resetMessage();
      if (closed) closeQuietly(body);
    }
    try {
      readUntilEvent(body);
    } catch (IOException e) {
      // a dropped connection: reconnect from `last`
    }
    if (next == null) {
      closeQuietly(body);
      body = null;
      return -1;
    }
    return 0;
  }

  /** Reads lines until a message yields an event (then returns, the connection still open) or the stream ends. */
  private void readUntilEvent(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    boolean afterCr = false;
    for (int b = in.read(); b != -1; b = in.read()) {
      lastRead = System.currentTimeMillis();
      if (afterCr) {
        afterCr = false;
        if (b == '\n') continue;
      }
      if (b != '\r' && b != '\n') {
        line.write(b);
        continue;
      }
      afterCr = b == '\r';
      String text = line.toString(StandardCharsets.UTF_8);
      line.reset();
      if (field(text)) return;
    }
    throw new IOException("the stream ended");
  }

  /** One line of a message; true when it completed a message that yields an event. */
  private boolean field(String text) {
    if (text.isEmpty()) return dispatch();
    if (text.startsWith(":")) return false;
    int colon = text.indexOf(':');
    String name = colon == -1 ? text : text.substring(0, colon);
    String value = colon == -1 ? "" : text.substring(colon + 1);
    if (value.startsWith(" ")) value = value.substring(1);
    switch (name) {
      case "id":
        if (value.indexOf('\0') == -1) {
          id = value;
          hasId = true;
        }
        break;
      case "event":
        eventType = value;
        break;
      case "data":
        data.add(value);
        hasData = true;
        break;
      case "retry":
        if (value.matches("\\d{1,9}")) {
          firstDelay = Long.parseLong(value);
          delay = firstDelay;
        }
        break;
      default:
        break;
    }
    return false;
  }

  private boolean dispatch() {
    try {
      if (hasId && id.matches("\\d{1,18}")) last = Long.parseLong(id);
      if (!hasData) return false;
      String text = String.join("\n", data);
      if ("gap".equals(eventType)) {
        JsonNode gone = mapper.readTree(text);
        if (onGap != null) onGap.gap(gone.path("from").asLong(), gone.path("to").asLong());
        return false;
      }
      next = mapper.readValue(text, Event.class);
      return true;
    } catch (JsonProcessingException e) {
      close();
      throw new UncheckedIOException("an event that is not an Event: " + e.getOriginalMessage(), e);
    } finally {
      resetMessage();
    }
  }

  private void resetMessage() {
    data.clear();
    id = null;
    eventType = null;
    hasId = false;
    hasData = false;
  }

  private PlinthException refusal(int status, HttpHeaders headers, InputStream in) {
    String text;
    try (InputStream closing = in) {
      text = new String(closing.readNBytes(1 << 20), StandardCharsets.UTF_8);
    } catch (IOException e) {
      text = "";
    }
    close();
    return Problems.toPlinthException(new ApiException(status, "HTTP " + status, headers, text), mapper);
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // already gone
    }
  }
}
