import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ERROR_CODES } from '../../../src/modules.ts';
import type { ErrorCode } from '../../../src/platform/http/errors.ts';
import { exchange, openSocket, type RawExchange, type RawResponse } from '../../helpers/raw-http.ts';
import { call, useServer } from '../../helpers/server.ts';

/** The contract's problem body on a response read off the socket: code, status, Request-Id equal to request_id. */
function assertRawProblem(response: RawResponse | undefined, code: ErrorCode): void {
  assert.ok(response, 'no response at all');
  assert.equal(response.status, ERROR_CODES[code].status, response.body);
  assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/);
  const body = JSON.parse(response.body);
  assert.equal(body.code, code);
  assert.equal(body.status, response.status);
  assert.equal(body.type, `/docs/errors#${code}`);
  assert.match(response.headers['request-id'] ?? '', /^req_[0-9A-Z]{26}$/);
  assert.equal(body.request_id, response.headers['request-id']);
  assert.equal(response.headers['x-powered-by'], undefined);
}

function assertRefusedAndClosed(result: RawExchange, code: ErrorCode): void {
  assert.equal(result.responses.length, 1, JSON.stringify(result.responses));
  assertRawProblem(result.responses[0], code);
  assert.equal(result.responses[0]!.headers.connection, 'close');
  assert.ok(result.closed, 'the server closes the connection');
}

describe("Node's own HTTP errors speak the error model (docs/api.md#the-wire)", () => {
  const server = useServer({ REQUEST_TIMEOUT_SECONDS: '1' });
  let key: string;
  before(async () => {
    key = await server.key('acme');
  });

  const host = 'Host: 127.0.0.1\r\n';
  const cases: Array<[string, string, ErrorCode]> = [
    [
      'duplicate Content-Length',
      `POST /v1/fintech/accounts HTTP/1.1\r\n${host}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      'request_malformed',
    ],
    [
      'Content-Length and Transfer-Encoding',
      `POST /v1/fintech/accounts HTTP/1.1\r\n${host}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}`,
      'request_malformed',
    ],
    ['no Host', 'GET /v1/fintech/accounts HTTP/1.1\r\n\r\n', 'request_malformed'],
    ['an unknown method', `BREW /v1/fintech/accounts HTTP/1.1\r\n${host}\r\n`, 'request_malformed'],
    ['a malformed request line', `GET  HTTP/1.1 what\r\n${host}\r\n`, 'request_malformed'],
    [
      'headers over the limit',
      `GET /healthz HTTP/1.1\r\n${host}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'headers_too_large',
    ],
    ['an unsupported Expect', `GET /healthz HTTP/1.1\r\n${host}Expect: tea\r\n\r\n`, 'expectation_unsupported'],
  ];
  for (const [name, bytes, code] of cases) {
    test(`${name} → ${ERROR_CODES[code].status} ${code} with a problem body, connection closed`, async () => {
      assertRefusedAndClosed(await exchange(server.url, bytes), code);
    });
  }

  test('a pipelined request already answered keeps its answer: a valid POST, then junk', async () => {
    const body = JSON.stringify({ type: 'business', country: 'US' });
    const post =
      `POST /v1/fintech/accounts HTTP/1.1\r\n${host}Authorization: Bearer ${key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const result = await exchange(server.url, `${post}GARBAGE \x01\r\n\r\n`);
    assert.equal(result.responses.length, 2, JSON.stringify(result.responses));
    assert.equal(result.responses[0]!.status, 200, result.responses[0]!.body);
    assert.equal(JSON.parse(result.responses[0]!.body).object, 'fintech.account');
    assertRawProblem(result.responses[1], 'request_malformed');
    assert.ok(result.closed);
  });

  test('headers that never finish → 408 request_timeout within REQUEST_TIMEOUT_SECONDS, closed', async () => {
    const result = await exchange(server.url, `GET /healthz HTTP/1.1\r\n${host}X-Slow: a`, 5000);
    assertRefusedAndClosed(result, 'request_timeout');
    assert.ok(result.elapsedMs < 2500, `took ${result.elapsedMs} ms`);
  });

  test('a body that never finishes → 408 request_timeout, closed, not logged as a server error', async () => {
    const result = await exchange(
      server.url,
      `POST /v1/sandbox/signup HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"na`,
      5000,
    );
    assertRefusedAndClosed(result, 'request_timeout');
    assert.ok(result.elapsedMs < 2500, `took ${result.elapsedMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const errors = server.logs.filter((l) => JSON.parse(l).level >= 50 || /service_unavailable/.test(l));
    assert.deepEqual(errors, []);
  });

  test('while 200 uploads stall, a normal client keeps its latency', async () => {
    const medianLatency = async () => {
      const latencies: number[] = [];
      for (let i = 0; i < 21; i++) {
        const started = performance.now();
        const reply = await call(server.url, 'GET', '/v1/fintech/accounts', { key });
        latencies.push(performance.now() - started);
        assert.equal(reply.status, 200);
      }
      return latencies.sort((a, b) => a - b)[10]!;
    };
    const usual = await medianLatency();
    const sockets = await Promise.all(Array.from({ length: 200 }, () => openSocket(server.url)));
    const closed = sockets.map(
      (socket) =>
        new Promise<boolean>((resolve) => {
          socket.on('error', () => undefined).resume(); // read, so that the server's close is seen
          const timer = setTimeout(() => resolve(false), 15_000); // the latency runs meanwhile: seconds, when loaded
          socket.on('close', () => {
            clearTimeout(timer);
            resolve(true);
          });
        }),
    );
    for (const socket of sockets)
      socket.write(
        `POST /v1/sandbox/signup HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: 65000\r\n\r\n{`,
      );
    const stalled = await medianLatency();
    // Relative to this machine's own usual latency, measured a moment ago: the suite runs beside other work.
    assert.ok(
      stalled < usual * 3 + 20,
      `median ${stalled.toFixed(1)} ms with 200 stalled uploads, ${usual.toFixed(1)} ms without`,
    );
    assert.deepEqual(await Promise.all(closed), Array(200).fill(true), 'every stalled upload is cut');
    for (const socket of sockets) socket.destroy();
  });

  test('a client that abandons its upload is neither a server error nor service_unavailable', async () => {
    const socket = await openSocket(server.url);
    socket.write(
      `POST /v1/fintech/accounts HTTP/1.1\r\n${host}Authorization: Bearer ${key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"type":',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const bad = server.logs.filter((l) => JSON.parse(l).level >= 50 || /service_unavailable|"status":5\d\d/.test(l));
    assert.deepEqual(bad, []);
  });
});
