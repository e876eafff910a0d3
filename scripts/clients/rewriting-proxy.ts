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
 */
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';

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

export interface RewritingProxy {
  url: string;
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1 at a free port, in front of `target` (e.g. http://127.0.0.1:41234). */
export async function startRewritingProxy(target: string): Promise<RewritingProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
    const forward = request(
      { hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        const type = String(answer.headers['content-type'] ?? '');
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
