/**
 * Is every event delivered after an unthrottled create load, and when? (issue 39 item 10). Plinth on
 * BENCH_DATABASE_URL (default a SQLite file; BENCH_WORKERS server processes, PostgreSQL only), one endpoint for every event, a local receiver answering 200 at once;
 * a create load of BENCH_SECONDS at BENCH_CONNECTIONS, then the distinct events received are counted every 10 s until
 * all have arrived or BENCH_DRAIN_SECONDS (600) pass. 127.0.0.1 only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.BENCH_SECONDS ??= '30';
const { CONNECTIONS, SECONDS, loadCreate } = await import('./lib/load.ts');
const { startPlinth } = await import('./lib/plinth.ts');
const { stop } = await import('./lib/process.ts');

const drainBoundS = Number(process.env.BENCH_DRAIN_SECONDS ?? 600);
const dir = mkdtempSync(join(tmpdir(), 'plinth-bench-drain-'));
const ids = new Set<string>();
let requests = 0;
const receiver = createServer((request, response) => {
  requests++;
  ids.add(String(request.headers['webhook-id']));
  request.resume();
  request.on('end', () => response.end('ok'));
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${join(dir, 'drain.db')}`;
const server = await startPlinth({
  databaseUrl,
  dir,
  name: 'drain',
  workers: Number(process.env.BENCH_WORKERS ?? 1),
  env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on' },
});
const say = (text: string) => process.stdout.write(`${text}\n`);
try {
  const made = await fetch(`http://127.0.0.1:${server.port}/v1/webhook_endpoints`, {
    method: 'POST',
    headers: { authorization: server.authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ url, enabled_events: ['*'] }),
  });
  if (made.status !== 200) throw new Error(`endpoint create answered ${made.status}: ${await made.text()}`);
  const before = ids.size;
  const create = await loadCreate(server.port, server.authorization);
  const events = create.ok;
  say(
    `${databaseUrl.split(':')[0]}: ${SECONDS} s at ${CONNECTIONS} connections: ${create.ok} creates ` +
      `(${create.rps.toFixed(0)}/s), ${create.non2xx} non-2xx; delivered by the load's end: ${ids.size - before}`,
  );
  const start = performance.now();
  let last = -1;
  while (ids.size - before < events && performance.now() - start < drainBoundS * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const t = Math.round((performance.now() - start) / 1000);
    if (t % 10 === 0 && t !== last) {
      last = t;
      say(`+${t} s: ${ids.size - before} / ${events} distinct events delivered (${requests} requests)`);
    }
  }
  const took = (performance.now() - start) / 1000;
  say(
    ids.size - before >= events
      ? `all ${events} delivered ${took.toFixed(1)} s after the load (${requests} requests)`
      : `after ${took.toFixed(0)} s: ${ids.size - before} / ${events} delivered`,
  );
} finally {
  await stop(server);
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
}
