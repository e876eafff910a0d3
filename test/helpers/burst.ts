import assert from 'node:assert/strict';
import { assertProblem } from './problem.ts';
import type { Reply } from './server.ts';

export function assertRateLimited(reply: Reply): void {
  assertProblem(reply, 'rate_limited');
  assert.ok(Number(reply.headers.get('retry-after')) >= 1, `Retry-After: ${reply.headers.get('retry-after')}`);
}

/** Fires `n` requests at once and counts the answers by status. */
export async function burst(
  n: number,
  send: (i: number) => Promise<Reply>,
): Promise<{ ok: number; limited: number; replies: Reply[] }> {
  const replies = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  for (const r of replies) if (r.status === 429) assertRateLimited(r);
  return {
    ok: replies.filter((r) => r.status === 200).length,
    limited: replies.filter((r) => r.status === 429).length,
    replies,
  };
}
