/**
 * The benchmark's baseline: a bare node:http server that does the least a durable create can do: parse the JSON
 * body, insert one row with a time-sortable id into SQLite (WAL, synchronous=FULL) and answer only after the
 * commit. Plinth is measured as a ratio of this, on the same machine in the same run.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { DatabaseSync } from 'node:sqlite';

const db = new DatabaseSync(process.argv[2]!);
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
db.exec('create table if not exists accounts (id text primary key, body text not null)');
const insert = db.prepare('insert into accounts (id, body) values (?, ?)');

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const id = `acct_${Date.now().toString(36).padStart(10, '0')}${randomBytes(10).toString('hex')}`;
    const account = { id, status: 'active', available_balance: { amount: 0, currency: 'USD' }, ...body };
    insert.run(id, JSON.stringify(account)); // autocommit: one fsync'd transaction per request
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(account));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
