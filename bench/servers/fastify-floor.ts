/**
 * The stack's floor for a retrieve: Fastify 5 answering GET /v1/fintech/accounts/:id from one prepared node:sqlite
 * select on a WAL database, with one pino line per request written asynchronously to stdout (a file in the bench),
 * and nothing else: no authentication, rate limit, validation, metrics or hooks. What Plinth's retrieve does on top
 * of this is its own cost; what this costs against the bare node:http server is the stack's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import Fastify from 'fastify';
import pino from 'pino';

const db = new DatabaseSync(join(mkdtempSync(join(tmpdir(), 'plinth-floor-')), 'floor.db'));
db.exec('PRAGMA journal_mode = WAL');
db.exec(`create table accounts (id text primary key, org_id text, mode text, type text, country text, currency text,
  status text, balance integer, created_at text)`);
db.prepare("insert into accounts values (?, 'org_1', 'sandbox', 'business', 'US', 'USD', 'active', 0, ?)").run(
  'acct_01KAQX7ZJ0Q9W3H6T8V2N4M5PB',
  new Date().toISOString(),
);
const select = db.prepare('select * from accounts where id = ? and org_id = ? and mode = ?');

const app = Fastify({
  logger: { level: 'info', stream: pino.destination({ fd: 1, sync: false }) },
  disableRequestLogging: true,
});
app.addHook('onResponse', (request, reply, done) => {
  request.log.info({ method: request.method, path: request.url, status: reply.statusCode }, 'request');
  done();
});
app.get<{ Params: { id: string } }>('/v1/fintech/accounts/:id', async (request, reply) => {
  const row = select.get(request.params.id, 'org_1', 'sandbox') as Record<string, unknown> | undefined;
  if (row === undefined) return reply.code(404).send({ title: 'not found' });
  return { ...row, object: 'fintech.account', livemode: false };
});
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('listening\n');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
