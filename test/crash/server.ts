import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { TEST_SECRETS_KEY } from '../helpers/database.ts';
import { BANK_SERVER_SETTINGS } from './bank.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const START_TIMEOUT_MS = 20_000;

/** Limits high enough that the campaign's traffic never meets them. */
const UNLIMITED = {
  RATE_LIMIT_LIVE: '1000000',
  RATE_LIMIT_SANDBOX: '1000000',
  AUTH_FAILURE_BURST: '1000000',
  SIGNUP_PER_HOUR: '1000000',
  // The campaign's webhook receiver listens on 127.0.0.1; an attempt cut by a kill is claimed again when its lease
  // (twice the timeout plus 5 s) ends, and a failed one is retried a second later.
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on',
  WEBHOOK_TIMEOUT_SECONDS: '2',
  WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s,1s,1s',
  // The clock's background pass, which finishes an advance cut by a kill, every second.
  SANDBOX_CLOCK_SWEEP_SECONDS: '1',
};

export interface ServerProcess {
  url: string;
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Every server this process started and has not seen exit: killed, group and all, if the campaign dies early. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/**
 * `npm start`'s entry point, `node src/server.ts`, as the leader of a process group of its own (so that the group
 * can be killed as a supervisor would kill it), on 127.0.0.1 and a free port; resolves once it listens. `env`: settings
 * of the caller's (test/powerloss/).
 */
export function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['src/server.ts'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      ...UNLIMITED,
      // PostgreSQL refuses to start without a key to seal secrets with (SQLite generates its own).
      ...(databaseUrl.startsWith('postgres') ? { SECRETS_KEY: process.env.SECRETS_KEY ?? TEST_SECRETS_KEY } : {}),
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ...BANK_SERVER_SETTINGS,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not listen within ${START_TIMEOUT_MS} ms: ${stderr}`));
    }, START_TIMEOUT_MS);
    let buffered = '';
    let listening = false;
    // The log is read to the end (a full pipe would stall the server); only the listening line matters.
    child.stdout!.on('data', (chunk: Buffer) => {
      if (listening) return;
      buffered += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(buffered);
      if (match === null) return;
      listening = true;
      buffered = '';
      clearTimeout(timer);
      resolve({ url: match[1]!, pid: child.pid!, exited });
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? `code ${code}`}) before listening: ${stderr.trim()}`));
    });
  });
}

/** SIGKILL to the server process alone, or to its whole process group. */
export function killServer(server: ServerProcess, target: 'process' | 'group'): void {
  process.kill(target === 'group' ? -server.pid : server.pid, 'SIGKILL');
}

/** After a failure: the server's whole group, if it still runs. */
export function stopAtOnce(server: ServerProcess): void {
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
