import assert from 'node:assert/strict';
import { ERROR_CODES } from '../../src/modules.ts';
import type { ErrorCode } from '../../src/platform/http/errors.ts';
import type { Reply } from './server.ts';

/** Asserts a response is the contract's RFC 9457 problem with this code (and param, when given). */
export function assertProblem(reply: Reply, code: ErrorCode, param?: string): void {
  const status = ERROR_CODES[code].status;
  assert.equal(reply.status, status, `expected ${status} ${code}, got ${reply.status}: ${reply.text}`);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(reply.body.code, code, reply.text);
  assert.equal(reply.body.status, status);
  assert.equal(reply.body.type, `/docs/errors#${code}`);
  assert.equal(typeof reply.body.title, 'string');
  assert.equal(typeof reply.body.detail, 'string');
  assert.match(reply.body.request_id, /^req_/);
  assert.equal(reply.body.request_id, reply.headers.get('request-id'));
  if (param !== undefined) {
    assert.equal(reply.body.param, param, reply.text);
    assert.ok(
      reply.body.errors.some((e: { param: string }) => e.param === param),
      reply.text,
    );
  }
  assert.doesNotMatch(reply.text, /at .*\.ts:\d+|SQLITE|select |insert /i, 'no internals in an error body');
}
