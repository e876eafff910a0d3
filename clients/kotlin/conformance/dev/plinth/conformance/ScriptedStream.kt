package dev.plinth.conformance

import com.sun.net.httpserver.HttpServer
import dev.plinth.Plinth
import dev.plinth.PlinthException
import java.net.InetSocketAddress
import java.util.Collections
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.CountDownLatch
import kotlin.concurrent.thread
import kotlin.system.exitProcess

// The event stream against a scripted server (the JDK's HttpServer): what a live Plinth does not send on demand,
// played here: \r\n and lone \r line ends, an event: gap, a 503, a connection lost halfway through an event (that
// event is not yielded, and the resume is from the one before); a 401 throws. Conformance step 25 covers the rest
// live, through the flaky proxy. Run by conformance.sh: `ScriptedStreamKt`.

private fun sseEvent(n: Int) = "id: $n\nevent: fintech.account.created\ndata: {\"id\":\"evt_${"%026d".format(n)}\",\"object\":\"event\",\n" +
    "data: \"type\":\"fintech.account.created\",\"sequence\":$n,\"data\":{\"object\":{\"id\":\"acct_$n\"}},\"request\":null," +
    "\"livemode\":false,\"created_at\":\"2026-11-26T10:00Z\"}\n\n"

/** Answers each connection with the next (status, body), then closes it; records "path Last-Event-ID" of each. */
private fun serve(script: List<Pair<Int, String>>, seen: MutableList<String>): HttpServer {
    val replies = ConcurrentLinkedQueue(script)
    val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
    server.createContext("/") { exchange ->
        seen.add("${exchange.requestURI} ${exchange.requestHeaders.getFirst("Last-Event-ID")}")
        val (status, body) = replies.poll() ?: (200 to ": idle\n\n")
        val bytes = body.toByteArray()
        exchange.responseHeaders.set("Content-Type", if (status == 200) "text/event-stream" else "application/problem+json")
        exchange.sendResponseHeaders(status, bytes.size.toLong())
        exchange.responseBody.use { it.write(bytes) }
    }
    server.start()
    return server
}

private fun ensure(ok: Boolean, what: () -> String) {
    if (!ok) {
        println("FAIL scripted stream: ${what()}")
        exitProcess(1)
    }
}

fun main() {
    val seen = Collections.synchronizedList(mutableListOf<String>())
    val gaps = mutableListOf<Pair<Long, Long>>()
    val server = serve(listOf(
        200 to ": stream open\nid: 7\n\n",
        200 to ": stream open\r\nretry: 5\r\nid: 7\r\n\r\n" + sseEvent(8).replace("\n", "\r\n") + sseEvent(9).take(40),
        503 to "{}",
        200 to "id: 8\r\rid: 11\nevent: gap\ndata: {\"from\":10,\"to\":11}\n\n" + sseEvent(12),
    ), seen)
    val plinth = Plinth(apiKey = "sk_test_x", baseUrl = "http://127.0.0.1:${server.address.port}")
    val got = plinth.events.stream(type = "fintech.account.created", onGap = { from, to -> gaps.add(from to to) }).use { it.take(2).toList() }
    server.stop(0)
    ensure(got.map { it.sequence } == listOf(8L, 12L)) { "sequences ${got.map { it.sequence }}" }
    ensure(got[1].`data`.`object`["id"] == "acct_12") { "data.object ${got[1].`data`.`object`}" }
    ensure(gaps == listOf(10L to 11L)) { "gaps $gaps" }
    val path = "/v1/events/stream?type=fintech.account.created"
    ensure(seen == listOf("$path null", "$path 7", "$path 8", "$path 8")) { "requests $seen" }
    println("ok   scripted stream: line ends, a gap, a 503 and a cut event; resumed by Last-Event-ID")

    val problem = """{"type":"/docs/errors#api_key_invalid","title":"t","status":401,"code":"api_key_invalid"}"""
    val refusing = serve(listOf(401 to problem), mutableListOf())
    try {
        Plinth(apiKey = "sk_test_x", baseUrl = "http://127.0.0.1:${refusing.address.port}").events.stream().use { it.iterator().hasNext() }
        ensure(false) { "a 401 did not throw" }
    } catch (e: PlinthException) {
        ensure(e.status == 401 && e.code == "api_key_invalid") { "refusal ${e.status} ${e.code}" }
    }
    refusing.stop(0)
    println("ok   scripted stream: a refused key throws PlinthException 401")

    // A stream that waits (the server holds the connection open, silent) is ended by close() from another thread:
    // the waiting hasNext() answers false. Before, closing the response there threw in both threads.
    val release = CountDownLatch(1)
    val connected = CountDownLatch(1)
    val holding = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
    holding.createContext("/") { exchange ->
        exchange.responseHeaders.set("Content-Type", "text/event-stream")
        exchange.sendResponseHeaders(200, 0)
        exchange.responseBody.write(": open\nid: 1\n\n".toByteArray())
        exchange.responseBody.flush()
        connected.countDown()
        release.await()
        exchange.close()
    }
    holding.start()
    val waiting = Plinth(apiKey = "sk_test_x", baseUrl = "http://127.0.0.1:${holding.address.port}").events.stream()
    thread { connected.await(); waiting.close() } // once the stream is open and waiting
    val more = waiting.iterator().hasNext()
    release.countDown()
    holding.stop(0)
    ensure(!more) { "a closed stream still has events" }
    println("ok   scripted stream: close() from another thread ends a waiting stream")
}
