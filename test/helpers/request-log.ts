import assert from 'node:assert/strict';
import type { Client } from './webhooks.ts';

/**
 * A request's log entry, once its batch has been written: entries are written a few hundred milliseconds after the
 * answer (REQUEST_LOG_FLUSH_MS), so this asks again every 50 ms, for at most 10 s.
 */
export async function entryOf(api: Client, requestId: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const reply = await api.get(`/v1/requests/${requestId}`);
    if (reply.status === 200) return reply.body;
    assert.equal(reply.status, 404, reply.text);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`request ${requestId} was not in the log after 10 s`);
}

/** Every entry a list query finds, newest first, walking the cursors. */
export async function allEntries(api: Client, query = ''): Promise<any[]> {
  const all = [];
  let after = '';
  for (;;) {
    const page = await api.get(`/v1/requests?limit=100${query}${after}`);
    assert.equal(page.status, 200, page.text);
    all.push(...page.body.data);
    if (!page.body.has_more) return all;
    after = `&starting_after=${page.body.data.at(-1).id}`;
  }
}
