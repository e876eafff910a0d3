/**
 * The PostgreSQL floor: a bare node:http server that does the least a durable create can do on PostgreSQL: parse
 * the JSON body, insert one account row (same columns and indexes as Plinth's) in its own transaction
 * (BEGIN, INSERT, COMMIT with synchronous_commit on) and answer only after the commit. One pooled connection per
 * in-flight request at most, as many as the load's connections.
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { newId } from '../../src/platform/kit/ids.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BARE_POOL_SIZE ?? 32) });
await pool.query(`create table if not exists bare_accounts (
  id text primary key, org_id text not null, mode text not null, type text not null, country text not null,
  currency text not null, available_balance bigint not null default 0, status text not null,
  kyb_legal_name text, kyb_ein text, created_at text not null)`);
await pool.query('create index if not exists bare_accounts_org_mode_id_idx on bare_accounts (org_id, mode, id)');

async function insert(body: { type: string; country: string }) {
  const now = new Date();
  const id = newId('acct', now.getTime());
  const row = [id, 'org_bench', 'sandbox', body.type, body.country, 'USD', 0, 'active', now.toISOString()];
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(
      `insert into bare_accounts (id, org_id, mode, type, country, currency, available_balance, status, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      row,
    );
    await client.query('commit');
  } finally {
    client.release();
  }
  return { id, object: 'account', ...body, status: 'active', available_balance: { amount: 0, currency: 'USD' } };
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (c: Buffer) => chunks.push(c));
  request.on('end', () => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'POST') return answer(200, { status: 'ok' }); // readiness
    insert(JSON.parse(Buffer.concat(chunks).toString('utf8'))).then(
      (account) => answer(200, account),
      (error: Error) => answer(500, { error: error.message }),
    );
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
