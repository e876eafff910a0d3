import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Db } from '../../db/database.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { eventsAfter, lastSequences, oldestKeptSequence } from './events.repository.ts';
import type { ReadAfter, Watcher } from './stream-hub.ts';

/** A comment line this often keeps proxies from closing an idle stream (docs/api.md#the-live-event-stream). */
export const HEARTBEAT_MS = 15_000;
const PAGE = 100;

/** One Server-Sent Events message: the event's stored bytes as `data`, so they equal GET /v1/events/{id}'s. */
export const frame = (sequence: number, type: string, data: string) =>
  `id: ${sequence}\nevent: ${type}\ndata: ${data}\n\n`;

type Rows = Awaited<ReturnType<ReadAfter>>;
// Streams that shared a read (stream-hub.ts) share its text too: one page, one string, one write per stream.
const texts = new WeakMap<Rows, string>();
function framesOf(rows: Rows): string {
  let text = texts.get(rows);
  if (text === undefined) {
    text = rows.map((row) => frame(Number(row.sequence), row.type, row.body)).join('');
    texts.set(rows, text);
  }
  return text;
}

export interface OpenedStream {
  body: PassThrough;
  watcher: Watcher;
  /** Writes the gap (if any) and replays from the store; then the hub's wake-ups continue it live. */
  start(): Promise<void>;
}

/**
 * One client's stream: it remembers the last number it has passed (`seen`) and, when woken with the owner's counter,
 * reads the numbered events after `seen` up to it, in order, a page at a time, waiting for the client to take each
 * page (a slow client slows only its own stream). Nothing is read while asleep.
 */
export function openStream(
  db: Db,
  owner: Principal,
  resume: { after: number | undefined; type: string | undefined; param?: string },
  settled: () => Promise<void> | undefined = () => undefined,
  hangUp: () => void = () => {},
): OpenedStream {
  const body = new PassThrough();
  let seen = 0;
  let target = 0;
  let reading: Promise<void> | null = null;
  let ended = false;
  // Wake-ups before the start only raise the target: the resume point is not known yet.
  let started = false;
  const heartbeat = setInterval(() => body.write(': keep-alive\n\n'), HEARTBEAT_MS).unref();
  body.on('close', () => {
    ended = true;
    clearInterval(heartbeat);
  });

  async function send(text: string): Promise<void> {
    if (!body.write(text) && !ended) await Promise.race([once(body, 'drain'), once(body, 'close')]);
  }

  const own: ReadAfter = (range, take) => eventsAfter(db, owner, range, take);
  let reader = own;

  async function read(): Promise<void> {
    while (seen < target && !ended) {
      const upTo = target;
      const rows = await reader({ after: seen, upTo, type: resume.type }, PAGE);
      // Only durable events leave: a number sent is never numbered again after a power loss. Reads on SQLite show only
      // durable commits (db/sqlite/durable-reads.ts); this waits only if a read found no durable snapshot free.
      await settled();
      if (rows.length > 0) await send(framesOf(rows));
      seen = rows.length < PAGE ? upTo : Number(rows.at(-1)!.sequence);
    }
  }

  function kick(): void {
    if (!started || reading !== null || ended || seen >= target) return;
    reading = read()
      .catch(() => void body.destroy())
      .finally(() => {
        reading = null;
        kick();
      });
  }

  function wake(last: number, read: ReadAfter = own): void {
    reader = read;
    target = Math.max(target, last);
    kick();
  }

  const watcher: Watcher = {
    orgId: owner.orgId,
    mode: owner.mode,
    keyId: owner.keyId,
    wake,
    end: (why) => {
      clearInterval(heartbeat); // nothing is written after the end
      if (why === 'revoked') body.write(': the key was revoked\n\n');
      body.end();
      // A client that does not read would hold the end (and the connection) back for ever: it is cut instead.
      if (why === 'revoked') hangUp();
    },
  };

  async function start(): Promise<void> {
    const counter = (await lastSequences(db, [owner.orgId])).get(`${owner.orgId}\n${owner.mode}`) ?? 0;
    const after = resume.after ?? counter;
    if (after > counter)
      throw new ApiError(
        'parameter_invalid',
        `${resume.param === 'last-event-id' ? 'Last-Event-ID' : 'after'} is ${after}, beyond the last event (${counter}); send a sequence you received, ` +
          'or none to start with the next event.',
        { param: resume.param ?? 'after' },
      );
    const oldest = counter > after ? await oldestKeptSequence(db, owner) : null;
    const firstKept = oldest ?? counter + 1;
    seen = after;
    if (counter > after && firstKept > after + 1) {
      // Purged after retention: say which numbers are gone, then carry on from the oldest kept.
      const gone = { from: after + 1, to: firstKept - 1 };
      body.write(`id: ${gone.to}\nevent: gap\ndata: ${JSON.stringify(gone)}\n\n`);
      seen = gone.to;
    } else body.write(`: stream open\nid: ${after}\n\n`); // an id alone: the client's resume point, from the start
    started = true;
    wake(counter);
  }

  return { body, watcher, start };
}
