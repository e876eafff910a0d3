import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { type Received, webhookHeaders } from './receiver.ts';
import { call, type Reply, type TestServer } from './server.ts';

/** One org's view of the API: its key and short calls. */
export interface Client {
  key: string;
  post(path: string, json?: unknown, headers?: Record<string, string>): Promise<Reply>;
  get(path: string): Promise<Reply>;
  del(path: string): Promise<Reply>;
}

export async function client(server: TestServer, org: string, mode: 'sandbox' | 'live' = 'sandbox'): Promise<Client> {
  const key = await server.key(org, mode);
  return {
    key,
    post: (path, json = {}, headers = {}) => call(server.url, 'POST', path, { key, json, headers }),
    get: (path) => call(server.url, 'GET', path, { key }),
    del: (path) => call(server.url, 'DELETE', path, { key }),
  };
}

/** Asserts the reference library verifies the delivery with one of `secrets`, and returns the event it carries. */
export function verified(received: Received, secrets: string[]): { id: string; type: string; sequence: number } {
  for (const secret of secrets) {
    try {
      return new Webhook(secret).verify(received.body, webhookHeaders(received)) as never;
    } catch {}
  }
  assert.fail(`no secret verifies delivery ${received.headers['webhook-id']}`);
}
