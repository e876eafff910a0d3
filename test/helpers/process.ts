import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** stdout lines so far (the JSON log). */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `npm start`'s entry point as its own process, on a free port; resolves once it listens. `wrap`: a command to run
 * it under (strace, to fail or slow its disk).
 */
export function spawnServer(env: Record<string, string>, wrap: string[] = []): Promise<ServerProcess> {
  const [command, ...args] = [...wrap, process.execPath, 'src/server.ts'];
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) resolve({ url: match[1]!, child, lines, exited });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then(({ code }) => reject(new Error(`server exited ${code} before listening: ${stderr}`)));
  });
}

/** Runs a command to completion and returns what it printed. */
export function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * The server with its stdout piped into a second process, as in `npm start | some-log-shipper`; the reader passes
 * on the line that says where the server listens, then exits. From then on the server's stdout is a pipe that
 * nobody will ever read again: every write to it fails with EPIPE.
 */
export async function spawnServerWhoseReaderExits(env: Record<string, string>): Promise<Omit<ServerProcess, 'lines'>> {
  const relay = `let seen = '';
process.stdin.on('data', (chunk) => {
  seen += chunk;
  const match = /Server listening at (http:\\/\\/127\\.0\\.0\\.1:\\d+)/.exec(seen);
  if (match) process.stdout.write(match[1], () => process.exit(0));
});`;
  const reader = spawn(process.execPath, ['-e', relay], { stdio: ['pipe', 'pipe', 'ignore'] });
  const child = spawn(process.execPath, ['src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', reader.stdin!, 'pipe'],
  });
  // The pipe now belongs to the two children alone; this process keeps no end of it open.
  reader.stdin!.destroy();
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let url = '';
  reader.stdout!.on('data', (chunk: Buffer) => (url += chunk.toString()));
  const readerExit = new Promise<number | null>((resolve) => reader.on('exit', (code) => resolve(code)));
  const outcome = await Promise.race([readerExit, exited.then(() => 'server exited' as const)]);
  if (outcome !== 0 || url === '') {
    child.kill('SIGKILL');
    reader.kill('SIGKILL');
    throw new Error(`the server did not start behind its reader (${outcome}): ${stderr}`);
  }
  return { url, child, exited };
}
