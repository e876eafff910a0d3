import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from 'typebox';
import { webhookHeaders } from '../modules/webhooks/engine/sign.ts';
import { WebhooksSettings } from '../modules/webhooks/settings.ts';
import { parseSettings } from '../platform/kit/settings.ts';

/** `cli listen` (README, "Webhooks on your laptop"): what to listen to, and where to forward it. */
export interface ListenOptions {
  /** The API's base URL, `http://127.0.0.1:3000`. */
  api: string;
  key: string;
  /** Only these event types (all when absent). */
  types?: string[];
  /** POST each event here, signed per Standard Webhooks with a secret made for this run. */
  forwardTo?: string;
  /** How long one forwarding attempt may take, connecting included (WEBHOOK_TIMEOUT_SECONDS). */
  timeoutSeconds?: number;
  /** Events printed but not yet forwarded; at this many, reading the stream waits (default FORWARD_QUEUE). */
  queueLimit?: number;
  /** Ends listening (Ctrl-C); resolves `listen` with 0. */
  signal?: AbortSignal;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

/** Waits between forwarding attempts (seconds), then gives up on that event: a laptop's loop, not the server's day. */
const FORWARD_RETRIES = [1, 2, 5, 10, 30, 60];
/**
 * Events waiting to be forwarded, at most. When the receiver falls this far behind, `listen` stops reading the stream
 * until it catches up: the server holds the rest (a stream waits for its client), and a connection dropped meanwhile
 * resumes by Last-Event-ID, so nothing is lost and memory stays bounded.
 */
const FORWARD_QUEUE = 1000;
const MAX_RECONNECT_MS = 10_000;

interface Message {
  id: string | undefined;
  event: string;
  data: string;
}

/** WEBHOOK_TIMEOUT_SECONDS as the server reads it (1–300, default 15): a bad value stops `listen` as it stops a server. */
export function forwardTimeoutSeconds(env: NodeJS.ProcessEnv): number {
  const schema = Type.Object({ WEBHOOK_TIMEOUT_SECONDS: WebhooksSettings.properties.WEBHOOK_TIMEOUT_SECONDS });
  return parseSettings<{ WEBHOOK_TIMEOUT_SECONDS: number }>(schema, env, process.cwd()).WEBHOOK_TIMEOUT_SECONDS;
}

/** The Server-Sent Events messages of a response body, as they arrive. */
async function* messages(body: ReadableStream<Uint8Array>): AsyncGenerator<Message> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true }).replaceAll('\r\n', '\n');
    for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const fields = new Map<string, string>();
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const at = line.indexOf(':');
        fields.set(line.slice(0, at), line.slice(at + 1).replace(/^ /, ''));
      }
      // An id alone (the stream's opening) moves the resume point and carries no event.
      if (fields.has('data') || fields.has('id'))
        yield { id: fields.get('id'), event: fields.get('event') ?? 'message', data: fields.get('data') ?? '' };
    }
  }
}

/** Posts one event, retrying failures (network, non-2xx) on FORWARD_RETRIES, honouring Retry-After up to a minute. */
async function forward(target: string, secret: string, data: string, options: ListenOptions): Promise<void> {
  const id = (JSON.parse(data) as { id: string }).id;
  for (let attempt = 0; ; attempt++) {
    let wait = FORWARD_RETRIES[attempt];
    try {
      // Bounded as the server's deliveries are: a receiver that never answers costs one timeout per attempt.
      const timeout = AbortSignal.timeout((options.timeoutSeconds ?? 15) * 1000);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      const response = await fetch(target, {
        method: 'POST',
        headers: webhookHeaders([secret], id, data, new Date()),
        body: data,
        redirect: 'manual',
        signal,
      });
      await response.arrayBuffer();
      if (response.ok) return;
      const after = Number(response.headers.get('retry-after'));
      if (after > 0 && wait !== undefined) wait = Math.min(after, 60);
      options.err?.(`forwarding ${id}: ${target} answered ${response.status}`);
      if (response.status === 410) return;
    } catch (error) {
      if (options.signal?.aborted) return;
      const timedOut = (error as Error).name === 'TimeoutError';
      options.err?.(
        `forwarding ${id}: ${timedOut ? `no answer within ${options.timeoutSeconds ?? 15} s` : (error as Error).message}`,
      );
    }
    if (wait === undefined) return options.err?.(`forwarding ${id}: giving up after ${attempt + 1} attempts`);
    await sleep(wait * 1000, undefined, { signal: options.signal }).catch(() => {});
    if (options.signal?.aborted) return;
  }
}

/** One printed line: the time (to the second), the sequence, the type, the object's id. */
function line(data: string): string {
  const event = JSON.parse(data) as { sequence: number; type: string; data: { object: { id?: string } } };
  const now = new Date().toISOString().slice(0, 19);
  return `${now}Z  ${event.sequence}  ${event.type}  ${event.data.object.id ?? ''}`;
}

/**
 * Listens to `GET /v1/events/stream` until `signal` aborts: prints each event, forwards it when asked (in order,
 * each after the previous is delivered or given up), and reconnects after any disconnection with Last-Event-ID, so
 * nothing is missed or repeated. Resolves with the exit code: 0 when stopped, 1 when the key is refused.
 */
export async function listen(options: ListenOptions): Promise<number> {
  const forwarded = new EventTarget();
  const oneForwarded = () =>
    new Promise<void>((resolve) => {
      forwarded.addEventListener('forwarded', () => resolve(), { once: true });
      options.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  const out = options.out ?? ((text: string) => process.stdout.write(`${text}\n`));
  const err = options.err ?? ((text: string) => process.stderr.write(`${text}\n`));
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  if (options.forwardTo) err(`Forwarding events to ${options.forwardTo}, signed with ${secret}`);
  const types = options.types?.length ? new Set(options.types) : undefined;
  const query = types?.size === 1 ? `?type=${encodeURIComponent([...types][0]!)}` : '';
  let last: string | undefined;
  let delay = 500;
  let forwarding = Promise.resolve();
  let waiting = 0; // events printed, not yet forwarded or given up
  const queueLimit = options.queueLimit ?? FORWARD_QUEUE;
  while (!options.signal?.aborted) {
    try {
      const response = await fetch(`${options.api.replace(/\/$/, '')}/v1/events/stream${query}`, {
        headers: { authorization: `Bearer ${options.key}`, ...(last === undefined ? {} : { 'last-event-id': last }) },
        signal: options.signal,
      });
      if (response.status === 401 || response.status === 403 || response.status === 400) {
        err(`the server refused to stream: ${response.status} ${await response.text()}`);
        return 1;
      }
      if (!response.ok || response.body === null) throw new Error(`the server answered ${response.status}`);
      if (last === undefined) err(`Ready: listening to ${options.api} (Ctrl-C to stop)`);
      delay = 500;
      for await (const message of messages(response.body)) {
        last = message.id ?? last;
        if (message.event === 'gap') err(`gap: events ${message.data} were purged before they could be sent`);
        if (message.data === '' || message.event === 'gap' || (types && !types.has(message.event))) continue;
        out(line(message.data));
        const target = options.forwardTo;
        if (target) {
          waiting++;
          forwarding = forwarding
            .then(() => forward(target, secret, message.data, { ...options, err }))
            .finally(() => {
              waiting--;
              forwarded.dispatchEvent(new Event('forwarded'));
            });
          // The queue is full: read nothing more until the oldest is forwarded (the server waits meanwhile).
          if (waiting >= queueLimit) {
            err(`forwarding: ${waiting} events waiting for ${target}; reading paused until it catches up`);
            while (waiting >= queueLimit && !options.signal?.aborted) await oneForwarded();
          }
        }
      }
    } catch (error) {
      if (options.signal?.aborted) break;
      err(`disconnected (${(error as Error).message}); reconnecting`);
    }
    await sleep(delay, undefined, { signal: options.signal }).catch(() => {});
    delay = Math.min(delay * 2, MAX_RECONNECT_MS);
  }
  await forwarding;
  return 0;
}
