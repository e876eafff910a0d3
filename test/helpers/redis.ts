import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** Where a redis-server binary is, or null (then the Redis tests are skipped with a visible line). */
export const REDIS_SERVER = spawnSync('sh', ['-c', 'command -v redis-server']).stdout.toString().trim() || null;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RedisProcess {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A private redis-server on loopback, keeping nothing on disk: tests can stop it without touching anyone else's. */
export async function startRedis(port?: number): Promise<RedisProcess> {
  const p = port ?? (await freePort());
  const child: ChildProcess = spawn(
    REDIS_SERVER!,
    ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('Ready to accept connections') && resolve());
    child.on('exit', (code) => reject(new Error(`redis-server exited ${code}`)));
  });
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
