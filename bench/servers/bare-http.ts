/**
 * The ceiling: a bare node:http server that reads the request body and answers a fixed account JSON. Nothing a real
 * server must do (auth, validation, storage, logging) happens here, so every ratio of the benchmark is relative to
 * what Node's HTTP layer alone can answer on this machine, in the same run.
 */
import { createServer } from 'node:http';

const ACCOUNT = JSON.stringify({
  id: 'acct_01KAQX7ZJ0Q9W3H6T8V2N4M5PB',
  object: 'account',
  type: 'business',
  country: 'US',
  status: 'active',
  available_balance: { amount: 0, currency: 'USD' },
  kyb: null,
  created_at: '2026-11-22T11:00:00.000Z',
  livemode: false,
});

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(ACCOUNT);
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
