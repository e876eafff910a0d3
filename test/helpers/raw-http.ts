import { connect, type Socket } from 'node:net';

/** One HTTP response as read off a raw socket. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  responses: RawResponse[];
  /** True when the server closed the connection before `waitMs` ran out. */
  closed: boolean;
  /** Milliseconds from the first byte sent to the close (or the give-up). */
  elapsedMs: number;
}

/** Opens a socket to the test server's `url` (loopback only). */
export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Splits what the server wrote into responses (Content-Length framed, as every Plinth response is). */
export function parseResponses(data: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = data;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyBytes = Buffer.from(rest.slice(end + 4), 'latin1');
    responses.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: bodyBytes.subarray(0, length).toString('utf8'),
    });
    rest = bodyBytes.subarray(length).toString('latin1');
  }
  return responses;
}

/** Sends `bytes` as they are, reads until the server closes or `waitMs` passes (always bounded). */
export async function exchange(url: string, bytes: string | Buffer, waitMs = 5000): Promise<RawExchange> {
  const socket = await openSocket(url);
  const started = Date.now();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(bytes);
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  socket.destroy();
  return {
    responses: parseResponses(Buffer.concat(chunks).toString('latin1')),
    closed,
    elapsedMs: Date.now() - started,
  };
}
