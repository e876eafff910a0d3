import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How the next requests are answered: called with each request (0-based count); default 200. */
  answer: (received: Received, index: number) => Answer;
  /** Resolves once `predicate` holds for what was received, or rejects after `timeoutMs`. */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (tests never send traffic anywhere else), recording every request. */
export async function startReceiver(): Promise<Receiver> {
  const receiver: Partial<Receiver> & { received: Received[] } = { received: [], answer: () => ({ status: 200 }) };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const got: Received = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = receiver.received.length;
      receiver.received.push(got);
      const answer = receiver.answer!(got, index);
      setTimeout(() => {
        if (response.destroyed) return;
        response.writeHead(answer.status, answer.headers).end('ok');
      }, answer.delayMs ?? 0).unref(); // a long delay never keeps a finished test's process alive
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  receiver.url = `http://127.0.0.1:${address.port}/hook`;
  receiver.until = async (predicate, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(receiver.received)) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met in ${timeoutMs} ms (${receiver.received.length} received)`);
      await new Promise((r) => setTimeout(r, 25));
    }
    return receiver.received;
  };
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver as Receiver;
}

/** The `webhook-*` headers as the reference library takes them. */
export function webhookHeaders(received: Received): Record<string, string> {
  return {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  };
}

/** Polls `check` until it returns a value that is not undefined. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`eventually: not met in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
