import type { ServerOptions } from 'node:http';

/** docs/api.md#the-wire: request headers over this many bytes are refused with 431 (Node's own default, stated). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Options for Node's HTTP server. Node only looks for expired requests every `connectionsCheckingInterval`
 * (30 s by default), so a 30 s timeout could take a minute to fire; checking every second (sooner for short test
 * timeouts) keeps it near its setting. The check walks the connection list, which stays cheap at thousands.
 * `requireHostHeader` is off because Node's own refusal has no body: the onRequest hook below answers instead.
 */
export function httpServerOptions(timeoutSeconds: number): ServerOptions {
  const ms = timeoutSeconds * 1000;
  return {
    headersTimeout: ms,
    requestTimeout: ms,
    connectionsCheckingInterval: Math.min(1000, Math.max(50, ms / 4)),
    requireHostHeader: false,
    maxHeaderSize: MAX_HEADER_BYTES,
  };
}
