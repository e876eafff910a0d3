/**
 * `node bench/delivery-instructions.ts` (issue 44): what one webhook delivery costs the delivery process (claim,
 * sign, send, record), in CPU instructions counted by valgrind (callgrind), so that the engine can be judged on a
 * machine whose wall-clock speed wanders.
 *
 * This process runs the API (the real app on a SQLite file, its own delivery workers stopped) and a receiver that
 * answers 200 at once; a child under valgrind runs the delivery workers as src/deliver.ts builds them (a database
 * connection of its own, `shared`). The API makes WARMUP accounts (one event and one delivery each), the child
 * delivers them (warm-up), then pauses; the API makes COUNTED more, and the child delivers those with callgrind's
 * instrumentation on (`callgrind_control -i on/off`), from its start to the moment nothing is pending. Instructions
 * / COUNTED is the cost of one delivery of a backlog (the saturated case: full rounds); RUNS (2) runs show whether it
 * repeats. The receiver and the API are not counted. CALLGRIND_OUT: where callgrind writes its profile;
 * WEBHOOK_CONCURRENCY and WEBHOOK_WORKERS, when set, reach the child's settings (to compare them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const WARMUP = Number(process.env.WARMUP ?? 400);
const COUNTED = Number(process.env.COUNTED ?? 800);
const RUNS = Number(process.env.RUNS ?? 2);
const BATCH = 20;

async function child(databaseUrl: string): Promise<void> {
  const { loadConfig } = await import('../src/config.ts');
  const { openDatabase } = await import('../src/db/open.ts');
  const { signingSecrets } = await import('../src/modules/webhooks/engine/signing-secrets.ts');
  const { deliveryWorkersFor } = await import('../src/modules/webhooks/install.ts');
  const { countPending } = await import('../src/modules/webhooks/api/deliveries.repository.ts');
  const { systemClock } = await import('../src/platform/kit/time.ts');
  const { secretBoxFor } = await import('../src/platform/secrets/key-source.ts');
  const { pino } = await import('pino');
  const { registerModules } = await import('../src/modules.ts');
  registerModules();
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on',
    LOG_LEVEL: 'warn',
    // Only these two, read here: importing the bench's phases would load autocannon into the counted heap.
    ...Object.fromEntries(
      ['WEBHOOK_CONCURRENCY', 'WEBHOOK_WORKERS'].flatMap((name) =>
        process.env[name] === undefined ? [] : [[name, process.env[name]!]],
      ),
    ),
  });
  const database = openDatabase(config.DATABASE_URL, { poolSize: 4, onIdleError: () => undefined, checkpoints: false });
  const workers = deliveryWorkersFor(config, {
    database,
    clock: systemClock,
    box: signingSecrets(secretBoxFor(config)),
    log: pino({ level: 'warn' }),
    resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    shared: true,
  });
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  for (;;) {
    const line = (await lines.next()).value;
    if (line !== 'go') break;
    workers.start();
    while ((await countPending(database.db)) > 0) await new Promise((resolve) => setTimeout(resolve, 250));
    await workers.stop(10_000);
    process.stdout.write('idle\n');
  }
  await database.close();
  process.stdin.destroy();
}

async function parent(): Promise<void> {
  process.env.LOG_LEVEL = 'warn';
  const { startServer } = await import('../test/helpers/server.ts');
  let received = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const results: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const server = await startServer({ LOG_LEVEL: 'warn' });
    await server.app.webhookDelivery.stop(0); // the child delivers
    const key = await server.key('deliveries');
    const post = async (path: string, body: object) => {
      const response = await server.app.inject({
        method: 'POST',
        url: path,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        payload: JSON.stringify(body),
      });
      if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${response.body}`);
    };
    const accounts = async (n: number) => {
      for (let made = 0; made < n; made += BATCH)
        await Promise.all(
          Array.from({ length: BATCH }, () => post('/v1/fintech/accounts', { type: 'business', country: 'US' })),
        );
    };
    await post('/v1/webhook_endpoints', { url, enabled_events: ['*'] });
    const valgrind = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        `--callgrind-out-file=${process.env.CALLGRIND_OUT ?? '/dev/null'}`,
        '--smc-check=all-non-file',
        '--instr-atstart=no',
        process.execPath,
        '--single-threaded',
        '--predictable-gc-schedule',
        import.meta.filename,
        '--child',
        server.databaseUrl,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    valgrind.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => valgrind.on('close', resolve));
    const out = createInterface({ input: valgrind.stdout })[Symbol.asyncIterator]();
    const idle = async () => {
      const line = (await out.next()).value;
      if (line !== 'idle') throw new Error(`child said ${line}:\n${stderr.slice(-2000)}`);
    };
    await accounts(WARMUP);
    valgrind.stdin.write('go\n');
    await idle();
    const before = received;
    await accounts(COUNTED);
    spawnSync('callgrind_control', ['-i', 'on', String(valgrind.pid)]);
    valgrind.stdin.write('go\n');
    await idle();
    spawnSync('callgrind_control', ['-i', 'off', String(valgrind.pid)]);
    valgrind.stdin.write('exit\n');
    const status = await exited;
    const collected = /Collected : (\d+)/.exec(stderr);
    if (status !== 0 || collected === null) throw new Error(`valgrind failed:\n${stderr.slice(-2000)}`);
    const per = Number(collected[1]) / COUNTED;
    results.push(per);
    process.stdout.write(
      `run ${run + 1}: ${(per / 1000).toFixed(0)}k instructions per delivery (${received - before} requests for ` +
        `${COUNTED} deliveries)\n`,
    );
    await server.close();
  }
  receiver.close();
  const mean = results.reduce((a, b) => a + b, 0) / results.length;
  const spread = (Math.max(...results) - Math.min(...results)) / mean;
  process.stdout.write(
    `delivery: ${(mean / 1000).toFixed(0)}k instructions per delivery (mean of ${RUNS}, spread ${(spread * 100).toFixed(1)}%)\n`,
  );
}

if (process.argv[2] === '--child') await child(process.argv[3]!);
else await parent();
