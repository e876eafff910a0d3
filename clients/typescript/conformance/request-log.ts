/**
 * Step 22 of the conformance scenario (clients/README.md): the request log. The create of step 2 is found by its
 * `Request-Id` through the filters (`method`, `status`, `created[gte]`), then retrieved with its body.
 */
import assert from 'node:assert/strict';
import type { PlinthClient } from '@plinth/client';
import { all, step, waitFor } from './helpers.js';

export async function requestLogStep(plinth: PlinthClient, firstRequestId: string): Promise<void> {
  await step('22 the request log: list with filters, retrieve', async () => {
    const since = new Date(Date.now() - 3_600_000);
    const posts = () => plinth.requests.list({ method: 'POST', status: '200', created: { gte: since }, limit: 100 });
    const found = await waitFor('the create of step 2 in the request log', 10, async () =>
      (await all(posts())).find((r) => r.id === firstRequestId),
    );
    assert.equal(found.route, '/v1/fintech/accounts');
    const entry = await plinth.requests.retrieve(firstRequestId);
    const sent = JSON.parse(entry.body ?? '{}');
    assert.deepEqual(
      [entry.id, entry.method, entry.status, entry.source, sent.type, sent.country],
      [firstRequestId, 'POST', 200, 'api', 'business', 'US'],
    );
    const page = await plinth.requests.listPage({ limit: 1, created: { gte: '2000-01-01T00:00Z' } });
    assert.equal(page.data.length, 1);
    assert.equal(page.has_more, true);
  });
}
