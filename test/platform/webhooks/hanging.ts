import { createServer, type Server } from 'node:http';

/**
 * A webhook receiver that accepts every connection, reads the request and never answers: the attack of issue 23. It
 * counts the requests it holds open, by the first segment of their path (one per organisation in the tests), and the
 * most it ever held at once.
 */
export interface Hanging {
  /** `${base}/<owner>/<n>`: an endpoint URL of `owner`. */
  base: string;
  /** Requests held open now, by owner. */
  open: Map<string, number>;
  /** The most held open at once, by owner. */
  most: Map<string, number>;
  /** Requests that ended (the sender gave up), by owner. */
  ended: Map<string, number>;
  total(): number;
  close(): Promise<void>;
}

export async function startHanging(): Promise<Hanging> {
  const open = new Map<string, number>();
  const most = new Map<string, number>();
  const ended = new Map<string, number>();
  const add = (map: Map<string, number>, owner: string, by: number) => map.set(owner, (map.get(owner) ?? 0) + by);
  const server: Server = createServer((request) => {
    const owner = (request.url ?? '/').split('/')[1] ?? '';
    add(open, owner, 1);
    most.set(owner, Math.max(most.get(owner) ?? 0, open.get(owner)!));
    request.resume(); // read the body, answer nothing
    request.socket.once('close', () => {
      add(open, owner, -1);
      add(ended, owner, 1);
    });
  });
  // Node would end an idle request after 5 minutes by itself; a hanging receiver never does.
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    open,
    most,
    ended,
    total: () => [...open.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
