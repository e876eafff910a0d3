package dev.plinth

import com.fasterxml.jackson.core.JsonProcessingException
import dev.plinth.client.infrastructure.Serializer
import dev.plinth.client.models.Event
import okhttp3.Call
import okhttp3.HttpUrl.Companion.toHttpUrl
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.Response
import okio.BufferedSource
import java.io.Closeable
import java.io.IOException
import java.time.Duration

/**
 * The live event stream (`GET /v1/events/stream`, Server-Sent Events; docs/api.md#the-live-event-stream) as a
 * blocking [Sequence] that resumes by itself: [Events.stream]. Each event carries its `sequence`, gap-free per
 * organisation and mode; after any disconnection (a network failure, the server restarting or ending the stream) it
 * reconnects with `Last-Event-ID` set to the last sequence it saw, so every event comes once, in order. Iterating
 * blocks until the next event. Close it (`use { }`, or [close] from any thread) to stop: the connection ends and the
 * iteration with it. A refusal that waiting will not change (a revoked key: 401; a bad parameter: 400) throws
 * [PlinthException]; 429 and 5xx are waited out (`Retry-After`, else backoff). [onGap] is told which sequences the
 * server no longer keeps when the starting point is older than its retention; the stream then carries on.
 *
 * ```
 * plinth.events.stream(type = "fintech.transfer.posted").use { events ->
 *     for (event in events) println("${event.sequence} ${event.type}")
 * }
 * ```
 */
class EventStream internal constructor(
    baseUrl: String,
    private val apiKey: String?,
    connectTimeout: Duration,
    type: String?,
    after: Long?,
    private val onGap: ((from: Long, to: Long) -> Unit)?,
) : Sequence<Event>, Closeable {
    // No retrying interceptor (a stream is not one request); the read timeout finds a dead connection: the server
    // writes a comment every 15 s.
    private val http = OkHttpClient.Builder()
        .connectTimeout(connectTimeout)
        .readTimeout(READ_TIMEOUT)
        .build()
    private val url = "$baseUrl/v1/events/stream".toHttpUrl().newBuilder()
        .apply { if (type != null) addQueryParameter("type", type) }.build()

    /** The last sequence seen: where the stream would resume. */
    @Volatile
    var lastSequence: Long? = after
        private set

    @Volatile
    private var closed = false

    /** The open connection's call: cancel() is how another thread stops a read (closing the response there is not safe). */
    @Volatile
    private var call: Call? = null
    private var response: Response? = null
    private var firstDelay = FIRST_DELAY_MS
    private var delay = FIRST_DELAY_MS
    private var next: Event? = null

    private val iterator = object : Iterator<Event> {
        override fun hasNext(): Boolean {
            while (next == null && !closed) {
                var wait = read()
                if (next != null || closed) break
                if (wait < 0) {
                    wait = delay
                    delay = minOf(delay * 2, MAX_DELAY_MS)
                }
                try {
                    Thread.sleep(wait)
                } catch (e: InterruptedException) {
                    Thread.currentThread().interrupt()
                    close()
                }
            }
            if (closed) release()
            return next != null
        }

        override fun next(): Event {
            if (!hasNext()) throw NoSuchElementException("the event stream is closed")
            return next!!.also { next = null }
        }
    }

    /** The one iterator of this stream (a stream is read once). */
    override fun iterator(): Iterator<Event> = iterator

    /** Ends the connection and the iteration; safe from any thread, and more than once. */
    override fun close() {
        closed = true
        call?.cancel()
    }

    /** Closes the response on the reading thread. */
    private fun release() {
        response?.close()
        response = null
    }

    /** Reads until the next event; returns how long to wait before reconnecting (-1: the backoff) when the connection ended first. */
    private fun read(): Long {
        var open = response
        if (open == null) {
            val request = Request.Builder().url(url).get()
                .header("Accept", "text/event-stream")
                .header("User-Agent", "plinth-kotlin")
            apiKey?.let { request.header("Authorization", "Bearer $it") }
            lastSequence?.let { request.header("Last-Event-ID", it.toString()) }
            val opening = http.newCall(request.build())
            call = opening
            if (closed) return -1
            open = try {
                opening.execute()
            } catch (e: IOException) {
                return -1 // refused, dropped or cancelled: reconnect (or stop, when closed)
            }
            if (open.code == 429 || open.code >= 500) {
                open.close()
                return open.header("Retry-After")?.toLongOrNull()?.takeIf { it > 0 }?.let { it * 1000 } ?: -1
            }
            if (open.code != 200) {
                val text = open.body?.string().orEmpty()
                close()
                throw Plinth.problem(open.code, text, open.headers.toMultimap(), null)
            }
            delay = firstDelay
            response = open
            message.clear()
        }
        try {
            if (readUntilEvent(open.body!!.source())) return 0
        } catch (e: IOException) {
            // a dropped connection (or a cancelled one): reconnect from lastSequence
        } catch (e: IllegalStateException) {
            if (!closed) throw e // the source closed under a cancel is the only one expected
        }
        release()
        return -1
    }

    private val message = Message()

    private class Message {
        val data = mutableListOf<String>()
        var id: String? = null
        var event: String? = null
        var hasData = false

        fun clear() {
            data.clear(); id = null; event = null; hasData = false
        }
    }

    /** Reads lines (ending \n, \r\n or \r) until a message yields an event (true) or the stream ends (false). */
    private fun readUntilEvent(source: BufferedSource): Boolean {
        val line = StringBuilder()
        val bytes = java.io.ByteArrayOutputStream()
        while (true) {
            if (source.exhausted()) return false
            val b = source.readByte().toInt()
            if (b != '\r'.code && b != '\n'.code) {
                bytes.write(b)
                continue
            }
            if (b == '\r'.code && source.request(1) && source.buffer[0] == '\n'.code.toByte()) source.readByte()
            line.setLength(0)
            line.append(bytes.toString(Charsets.UTF_8))
            bytes.reset()
            if (field(line.toString())) return true
        }
    }

    /** One line of a message; true when it completed a message that yields an event. */
    private fun field(text: String): Boolean {
        if (text.isEmpty()) return dispatch()
        if (text.startsWith(":")) return false
        val name = text.substringBefore(':')
        val value = if (':' in text) text.substringAfter(':').removePrefix(" ") else ""
        when (name) {
            "id" -> if ('\u0000' !in value) message.id = value
            "event" -> message.event = value
            "data" -> { message.data.add(value); message.hasData = true }
            "retry" -> value.takeIf { it.matches(Regex("\\d{1,9}")) }?.toLong()?.let { firstDelay = it; delay = it }
        }
        return false
    }

    private fun dispatch(): Boolean {
        try {
            message.id?.toLongOrNull()?.let { lastSequence = it }
            if (!message.hasData) return false
            val text = message.data.joinToString("\n")
            val mapper = Serializer.jacksonObjectMapper
            if (message.event == "gap") {
                val gone = mapper.readTree(text)
                onGap?.invoke(gone.path("from").asLong(), gone.path("to").asLong())
                return false
            }
            next = mapper.readValue(text, Event::class.java)
            return true
        } catch (e: JsonProcessingException) {
            close()
            throw IllegalStateException("an event that is not an Event: ${e.originalMessage}", e)
        } finally {
            message.clear()
        }
    }

    private companion object {
        const val FIRST_DELAY_MS = 250L
        const val MAX_DELAY_MS = 8_000L
        val READ_TIMEOUT: Duration = Duration.ofSeconds(45)
    }
}
