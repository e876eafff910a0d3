/**
 * The rewriting proxy of the client conformance scenario: it plays a future server. Every request goes to the
 * real Plinth unchanged; JSON response bodies come back with what a newer server might send, so each client
 * proves it decodes responses it was not generated for (clients/README.md#what-every-client-does: unknown fields, enum values, error codes):
 *   - every JSON object gains `"future_field": {"nested": true}`, except a `metadata` map, which is the integrator's
 *     own pairs of strings (docs/api.md#metadata-your-own-references): no server version adds to it, and a client may rightly type its values
 *     as strings, so it passes unchanged;
 *   - a `"status"` of `"active"` becomes `"dormant"`;
 *   - in problem bodies every `code` (top level and in `errors[]`) becomes `"future_error_code"`.
 * Content-Length is recomputed; other headers (Request-Id, Retry-After, …) pass through.
 *
 * The live event stream (`text/event-stream`) plays a future server on a flaky network (flakyEventStream below):
 * each event's `data` arrives on two lines (split after the first comma, where JSON allows a line break), after a
 * comment line and a `retry: 100` field, and the connection is lost right after that first event — ended cleanly on
 * one connection, cut mid-stream (the socket destroyed) on the next. A client's iterator therefore proves that it
 * parses Server-Sent Events as the format allows and resumes by `Last-Event-ID` with no gap and no repeat.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function rewrite(value: Json, problem: boolean): Json {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, problem));
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: Json } = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'metadata') out[key] = child;
    else if (key === 'status' && child === 'active') out[key] = 'dormant';
    else if (problem && key === 'code' && typeof child === 'string') out[key] = 'future_error_code';
    else out[key] = rewrite(child, problem);
  }
  out.future_field = { nested: true };
  return out;
}

/** One SSE message with its `data` line split in two, after a comment and a `retry` field. */
export function reshapeEvent(message: string): string {
  const lines = message.split('\n').flatMap((line) => {
    if (!line.startsWith('data: ')) return [line];
    const comma = line.indexOf(',');
    return comma === -1 ? [line] : [line.slice(0, comma + 1), `data: ${line.slice(comma + 1)}`];
  });
  return [': a future server on a flaky network', 'retry: 100', ...lines].join('\n');
}

/** Passes the stream's opening on, then its first event reshaped, then loses the connection (see the header). */
function flakyEventStream(answer: IncomingMessage, res: ServerResponse, cutHard: boolean): void {
  res.writeHead(answer.statusCode ?? 502, answer.headers);
  let buffered = '';
  answer.setEncoding('utf8');
  answer.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
      const message = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (!/^data:/m.test(message)) {
        res.write(`${message}\n\n`);
        continue;
      }
      res.write(`${reshapeEvent(message)}\n\n`);
      answer.destroy();
      if (cutHard) res.socket?.destroy();
      else res.end();
      return;
    }
  });
  answer.on('end', () => res.end());
  res.on('close', () => answer.destroy());
}

export interface RewritingProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1 at a free port, in front of `target` (e.g. http://127.0.0.1:41234). */
export async function startRewritingProxy(target: string): Promise<RewritingProxy> {
  const upstream = new URL(target);
  let streams = 0;
  const server: Server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
    const forward = request(
      { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        const type = String(answer.headers['content-type'] ?? '');
        if (type.startsWith('text/event-stream')) {
          flakyEventStream(answer, res, streams++ % 2 === 1);
          return;
        }
        if (!/^application\/(problem\+)?json/.test(type)) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body = text;
          try {
            body = JSON.stringify(rewrite(JSON.parse(text) as Json, type.startsWith('application/problem+json')));
          } catch {
            // Not JSON after all: pass it on untouched, the client's own error handling is then what is tested.
          }
          const outHeaders = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
          delete outHeaders['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, outHeaders);
          res.end(body);
        });
      },
    );
    forward.on('error', () => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('proxy: upstream unreachable');
    });
    req.pipe(forward);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
