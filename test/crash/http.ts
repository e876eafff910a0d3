import http from 'node:http';

export interface Answer {
  status: number;
  replayed: boolean;
  text: string;
}

const TIMEOUT_MS = 15_000;

/**
 * One HTTP request on `agent`; resolves with the answer, or rejects when none came (the connection was refused,
 * reset or closed by a killed server, or nothing arrived in time). No retry of any kind happens here: what counts
 * as "unanswered" must be exactly what the server never answered.
 */
export function send(
  agent: http.Agent,
  url: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  json?: unknown,
): Promise<Answer> {
  const payload = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(path, url),
      {
        method,
        agent,
        timeout: TIMEOUT_MS,
        headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('error', reject);
        response.on('end', () => {
          if (!response.complete) return reject(new Error('the answer was cut short'));
          resolve({ status: response.statusCode!, replayed: response.headers['idempotent-replayed'] === 'true', text });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(payload);
  });
}
