import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { send } from './http.ts';

/** How long the events of the writes answered so far may take to be listed (numbered) after a restart. */
const NUMBERED_PATIENCE_MS = 30_000;

interface Event {
  id: string;
  type: string;
  sequence: number;
  data: { object: { id: string } };
}

/** Every event of the key's org and mode, through `GET /v1/events` (each page waits for a sequencer pass). */
async function listAll(agent: http.Agent, url: string, apiKey: string): Promise<Event[]> {
  const events: Event[] = [];
  let after = '';
  for (;;) {
    const path = `/v1/events?limit=100${after ? `&starting_after=${after}` : ''}`;
    const page = await send(agent, url, 'GET', path, { authorization: `Bearer ${apiKey}` });
    if (page.status !== 200) throw new Error(`GET /v1/events answered ${page.status}: ${page.text}`);
    const body = JSON.parse(page.text) as { data: Event[]; has_more: boolean };
    events.push(...body.data);
    if (!body.has_more || body.data.length === 0) return events;
    after = body.data.at(-1)!.id;
  }
}

export interface EventFaults {
  /** Answered accounts whose `fintech.account.created` event was never listed (numbered) in the patience. */
  missing: string[];
  /** Accounts with more than one creation event, or creation events for an account that was never answered. */
  extra: string[];
  /** What is wrong with the numbers: a gap, a duplicate, or an event whose number changed since the last look. */
  numbering: string[];
  listed: number;
}

/**
 * The events the server lists for the org, once the sequencer has numbered every answered write's (docs/api.md#events):
 * one `fintech.account.created` per answered account and none for anything else, numbered 1..n with no gap or
 * duplicate, and every event keeping the number it had at the previous look (`seen`, updated here).
 */
export async function checkEvents(
  agent: http.Agent,
  url: string,
  apiKey: string,
  answered: Set<string>,
  seen: Map<string, number>,
): Promise<EventFaults> {
  const deadline = Date.now() + NUMBERED_PATIENCE_MS;
  let events = await listAll(agent, url, apiKey);
  const created = () =>
    new Set(events.filter((e) => e.type === 'fintech.account.created').map((e) => e.data.object.id));
  while ([...answered].some((id) => !created().has(id)) && Date.now() < deadline) {
    await sleep(200);
    events = await listAll(agent, url, apiKey);
  }
  const listed = created();
  const missing = [...answered].filter((id) => !listed.has(id));
  const perAccount = new Map<string, number>();
  for (const e of events.filter((e) => e.type === 'fintech.account.created'))
    perAccount.set(e.data.object.id, (perAccount.get(e.data.object.id) ?? 0) + 1);
  const extra = [...perAccount].filter(([id, n]) => n > 1 || !answered.has(id)).map(([id, n]) => `${id} ×${n}`);
  const numbering: string[] = [];
  const sequences = events.map((e) => e.sequence).sort((a, b) => a - b);
  sequences.forEach((sequence, i) => {
    if (sequence !== i + 1) numbering.push(`position ${i + 1} of the sorted numbers holds ${sequence}`);
  });
  for (const e of events) {
    const before = seen.get(e.id);
    if (before !== undefined && before !== e.sequence) numbering.push(`${e.id} was ${before}, is now ${e.sequence}`);
    seen.set(e.id, e.sequence);
  }
  return { missing, extra, numbering: numbering.slice(0, 20), listed: events.length };
}
