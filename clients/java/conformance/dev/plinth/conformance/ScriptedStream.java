package dev.plinth.conformance;

import com.sun.net.httpserver.HttpServer;
import dev.plinth.EventStream;
import dev.plinth.Plinth;
import dev.plinth.PlinthException;
import dev.plinth.client.model.Event;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/**
 * The event stream against a scripted server (the JDK's HttpServer): what a live Plinth does not send on demand,
 * played here: \r\n and lone \r line ends, an event: gap, a 503, a connection lost halfway through an event (that
 * event is not yielded, and the resume is from the one before); a 401 throws. Conformance step 25 covers the rest
 * live, through the flaky proxy. Run by conformance.sh.
 */
public final class ScriptedStream {
  private ScriptedStream() {}

  static String event(int sequence) {
    return "id: " + sequence + "\nevent: fintech.account.created\ndata: {\"id\":\"evt_" + String.format("%026d", sequence)
        + "\",\"object\":\"event\",\n" + "data: \"type\":\"fintech.account.created\",\"sequence\":" + sequence
        + ",\"data\":{\"object\":{\"id\":\"acct_" + sequence + "\"}},\"request\":null,\"livemode\":false,"
        + "\"created_at\":\"2026-11-26T10:00Z\"}\n\n";
  }

  static final class Reply {
    final int status;
    final String body;

    Reply(int status, String body) {
      this.status = status;
      this.body = body;
    }
  }

  /** Answers each connection with the next reply, then closes it; records each request's Last-Event-ID and path. */
  static HttpServer serve(List<Reply> script, List<String> seen) throws Exception {
    ConcurrentLinkedQueue<Reply> replies = new ConcurrentLinkedQueue<>(script);
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      seen.add(exchange.getRequestURI() + " " + exchange.getRequestHeaders().getFirst("Last-Event-ID"));
      Reply r = replies.poll();
      if (r == null) r = new Reply(200, ": idle\n\n");
      byte[] bytes = r.body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", r.status == 200 ? "text/event-stream" : "application/problem+json");
      exchange.sendResponseHeaders(r.status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    server.start();
    return server;
  }

  static void check(boolean ok, String what) {
    if (!ok) {
      System.out.println("FAIL scripted stream: " + what);
      System.exit(1);
    }
  }

  public static void main(String[] args) throws Exception {
    List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
    List<long[]> gaps = new ArrayList<>();
    HttpServer server = serve(List.of(
        new Reply(200, ": stream open\nid: 7\n\n"),
        new Reply(200, ": stream open\r\nretry: 5\r\nid: 7\r\n\r\n" + event(8).replace("\n", "\r\n") + event(9).substring(0, 40)),
        new Reply(503, "{}"),
        new Reply(200, "id: 8\r\rid: 11\nevent: gap\ndata: {\"from\":10,\"to\":11}\n\n" + event(12))), seen);
    String url = "http://127.0.0.1:" + server.getAddress().getPort();
    List<Long> got = new ArrayList<>();
    try (EventStream stream = Plinth.builder().apiKey("sk_test_x").baseUrl(url).build().events()
        .stream(new EventStream.Params().type("fintech.account.created").onGap((from, to) -> gaps.add(new long[] {from, to})))) {
      for (Event e : stream) {
        got.add(e.getSequence());
        if (got.size() == 2) {
          check("acct_12".equals(e.getData().getObject().get("id")), "data.object " + e.getData().getObject());
          break;
        }
      }
    }
    server.stop(0);
    check(got.equals(List.of(8L, 12L)), "sequences " + got);
    check(gaps.size() == 1 && gaps.get(0)[0] == 10 && gaps.get(0)[1] == 11, "gaps " + gaps.size());
    check(seen.equals(List.of("/v1/events/stream?type=fintech.account.created null",
        "/v1/events/stream?type=fintech.account.created 7", "/v1/events/stream?type=fintech.account.created 8",
        "/v1/events/stream?type=fintech.account.created 8")), "requests " + seen);
    System.out.println("ok   scripted stream: line ends, a gap, a 503 and a cut event; resumed by Last-Event-ID");

    String problem = "{\"type\":\"/docs/errors#api_key_invalid\",\"title\":\"t\",\"status\":401,\"code\":\"api_key_invalid\"}";
    HttpServer refusing = serve(List.of(new Reply(401, problem)), new ArrayList<>());
    try (EventStream stream = Plinth.builder().apiKey("sk_test_x")
        .baseUrl("http://127.0.0.1:" + refusing.getAddress().getPort()).build().events().stream(null)) {
      stream.hasNext();
      check(false, "a 401 did not throw");
    } catch (PlinthException e) {
      check(e.getStatus() == 401 && "api_key_invalid".equals(e.getCode()), "refusal " + e.getStatus() + " " + e.getCode());
    }
    refusing.stop(0);
    System.out.println("ok   scripted stream: a refused key throws PlinthException 401");

    // A stream that waits (the server holds the connection open, silent) is ended by close() from another thread:
    // the waiting hasNext() answers false.
    CountDownLatch connected = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    HttpServer holding = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    holding.createContext("/", exchange -> {
      exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      exchange.getResponseBody().write(": open\nid: 1\n\n".getBytes(StandardCharsets.UTF_8));
      exchange.getResponseBody().flush();
      connected.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.close();
    });
    holding.start();
    EventStream waiting = Plinth.builder().apiKey("sk_test_x")
        .baseUrl("http://127.0.0.1:" + holding.getAddress().getPort()).build().events().stream(null);
    new Thread(() -> {
      try {
        connected.await(); // once the stream is open and waiting
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      waiting.close();
    }).start();
    boolean more = waiting.hasNext();
    release.countDown();
    holding.stop(0);
    check(!more, "a closed stream still has events");
    System.out.println("ok   scripted stream: close() from another thread ends a waiting stream");
  }
}
