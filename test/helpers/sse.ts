import { type IncomingMessage, request } from 'node:http';

/** One Server-Sent Events message as a client parses it (comments are kept apart: they carry no event). */
export interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body, when the answer is not a stream (a problem). */
  text(): Promise<string>;
  /** The next message, or null once the server has ended the stream. */
  next(): Promise<SseMessage | null>;
  /** Comment lines received so far. */
  comments: string[];
  /** Resolves when the server ends the response (or the connection drops). */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET path` as an event-stream client would (raw HTTP, so the test sees exactly what the server sent). */
export function openSse(base: string, path: string, key: string, headers: Record<string, string> = {}) {
  return new Promise<SseConnection>((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(url, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream', ...headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      res.setEncoding('utf8');
      const queue: SseMessage[] = [];
      const comments: string[] = [];
      let waiting: ((m: SseMessage | null) => void) | null = null;
      let done = false;
      let buffered = '';
      let raw = '';
      const ended = new Promise<void>((end) => res.on('close', end));
      const deliver = (message: SseMessage | null) => {
        if (waiting !== null) {
          const resolveNext = waiting;
          waiting = null;
          resolveNext(message);
        } else if (message !== null) queue.push(message);
      };
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffered += chunk;
        let end = buffered.indexOf('\n\n');
        while (end !== -1) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const fields: Record<string, string> = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const at = line.indexOf(': ');
              fields[line.slice(0, at)] = line.slice(at + 2);
            }
          }
          if (fields.data !== undefined)
            deliver({ id: fields.id, event: fields.event ?? 'message', data: fields.data });
          end = buffered.indexOf('\n\n');
        }
      });
      void ended.then(() => {
        done = true;
        deliver(null);
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        text: () => ended.then(() => raw),
        next: () =>
          queue.length > 0
            ? Promise.resolve(queue.shift()!)
            : done
              ? Promise.resolve(null)
              : new Promise((r) => (waiting = r)),
        comments,
        ended,
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}
