/**
 * `plinth.events.stream()`: the live event stream (GET /v1/events/stream, Server-Sent Events) as an async iterator
 * that resumes by itself. Each event carries its `sequence`, gap-free per organisation and mode; after any
 * disconnection (a network failure, the server restarting or ending the stream) the iterator reconnects with
 * `Last-Event-ID` set to the last sequence it yielded, so it yields every event once, in order. Stop it with
 * `break` (or an AbortSignal). A refusal that waiting will not change (a revoked key: 401; a bad parameter: 400)
 * throws a PlinthError; 429 and 5xx are waited out (Retry-After, else backoff).
 */
import type { Event } from '../generated/index.js';
import { PlinthError } from './errors.js';

export interface StreamParams {
  /** Only events of this type. */
  type?: string;
  /** Start after this sequence (0: every event still kept); by default with the next event. */
  after?: number;
  signal?: AbortSignal;
}

export interface StreamConnection {
  baseUrl: string;
  apiKey: string;
  /** A plain fetch: the client's retrying transport would time a long-lived stream out. */
  fetch: typeof fetch;
}

const MAX_DELAY_MS = 8_000;

interface Message {
  id: string | undefined;
  event: string;
  data: string;
}

async function* messages(body: ReadableStream<Uint8Array>): AsyncGenerator<Message> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
        const fields = new Map<string, string>();
        for (const line of buffered.slice(0, end).split('\n')) {
          if (line === '' || line.startsWith(':')) continue;
          const at = line.indexOf(':');
          const name = at === -1 ? line : line.slice(0, at);
          const value = at === -1 ? '' : line.slice(at + 1).replace(/^ /, '');
          // Several data lines make one value, joined by a line break (the format allows it; JSON may be split so).
          const before = fields.get(name);
          fields.set(name, name === 'data' && before !== undefined ? `${before}\n${value}` : value);
        }
        buffered = buffered.slice(end + 2);
        const data = fields.get('data');
        // An id alone (the stream's opening) moves the resume point and carries no event.
        if (data !== undefined || fields.has('id'))
          yield { id: fields.get('id'), event: fields.get('event') ?? 'message', data: data ?? '' };
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((done) => {
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      done();
    };
    signal?.addEventListener('abort', stop, { once: true });
  });

export async function* eventStream(connection: StreamConnection, params: StreamParams = {}): AsyncGenerator<Event> {
  let last = params.after;
  let delay = 250;
  const query = params.type === undefined ? '' : `?type=${encodeURIComponent(params.type)}`;
  while (!params.signal?.aborted) {
    const stop = new AbortController();
    params.signal?.addEventListener('abort', () => stop.abort(), { once: true });
    let wait: number | undefined;
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${connection.apiKey}` };
      if (last !== undefined) headers['last-event-id'] = String(last);
      headers.accept = 'text/event-stream';
      const response = await connection.fetch(`${connection.baseUrl}/v1/events/stream${query}`, {
        headers,
        signal: stop.signal,
      });
      if (response.status === 429 || response.status >= 500) {
        wait = Number(response.headers.get('retry-after') ?? 0) * 1000 || undefined;
        await response.body?.cancel();
      } else if (!response.ok || response.body === null) throw await PlinthError.fromResponse(response);
      else {
        delay = 250;
        for await (const message of messages(response.body)) {
          if (message.id !== undefined) last = Number(message.id);
          if (message.data !== '' && message.event !== 'gap') yield JSON.parse(message.data) as Event;
        }
      }
    } catch (error) {
      if (params.signal?.aborted) return;
      if (error instanceof PlinthError) throw error;
      // A dropped connection: reconnect below, from `last`.
    } finally {
      stop.abort();
    }
    await sleep(wait ?? delay, params.signal);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}
