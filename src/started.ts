import type { AddressInfo } from 'node:net';

/** How often a server started by `npm start` looks whether that npm is still there. */
const PARENT_POLL_MS = 500;

/**
 * `npm start` passes `--stop-with-parent`: the server then stops (as on SIGTERM) when the process that started it is
 * gone, even if it died without passing a signal on (`kill -9`), so no server outlives its `npm start`. Only then:
 * a server started on its own (`nohup node src/server.ts &`, a unit file) keeps running when its shell exits.
 */
export function stopWithParent(stop: (why: string) => void): void {
  if (!process.argv.includes('--stop-with-parent')) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop('the process that started the server exited');
  }, PARENT_POLL_MS).unref();
}

/** The one line for a person, on stderr (stdout is the JSON log): where the API and the dashboard are, how to stop. */
export function sayWhereServing(address: AddressInfo | string | null, log: (line: string) => void): void {
  if (address === null || typeof address === 'string') return;
  const everywhere = address.address === '0.0.0.0' || address.address === '::';
  const host = everywhere ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const base = `http://${host}:${address.port}`;
  log(
    `plinth: serving the API at ${base}/v1 and the dashboard at ${base}/dashboard` +
      `${everywhere ? ' (on every interface)' : ''}; stop with Ctrl-C or kill -TERM ${process.pid}\n`,
  );
}
