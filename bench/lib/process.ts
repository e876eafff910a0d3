/** Starting, watching and stopping the servers under test: each a child process on 127.0.0.1, logging to a file. */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export const ROOT = new URL('../..', import.meta.url).pathname;

export interface Server {
  child: ChildProcess;
  port: number;
  /** Where the server's stdout and stderr go (its JSON log lines): a file, so nothing blocks on a pipe. */
  logFile: string;
}

/** A port free right now on 127.0.0.1, so that every server (and every cluster worker) is told its port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once GET `path` answers 200 and the log shows `listeners` listening lines (cluster workers). */
async function ready(server: Server, path: string, listeners: number, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited ${server.child.exitCode}: ${tail(server)}`);
    const listening = readFileSync(server.logFile, 'utf8').match(new RegExp(pattern, 'g'))?.length ?? 0;
    const ok = await fetch(`http://127.0.0.1:${server.port}${path}`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok && listening >= listeners) return;
    await sleep(100);
  }
  throw new Error(`server not ready in 30 s: ${tail(server)}`);
}

const tail = (server: Server) => readFileSync(server.logFile, 'utf8').slice(-2000);

export interface StartOptions {
  args: string[];
  env: Record<string, string>;
  logFile: string;
  /** Node flags before the script (a preload, --cpu-prof). */
  nodeFlags?: string[];
  readyPath?: string;
  /** Listening lines to wait for in the log (one per cluster worker), matched by `listenPattern`. */
  listeners?: number;
  listenPattern?: RegExp;
  /** The directory the server runs in (its `args` are relative to it); this repository by default. */
  cwd?: string;
  /** A command the server runs under (strace, to slow its disk): then it runs in a process group of its own. */
  wrap?: string[];
}

export async function start(options: StartOptions): Promise<Server> {
  const port = await freePort();
  const out = openSync(options.logFile, 'a');
  const [command, ...args] = [...(options.wrap ?? []), process.execPath, ...(options.nodeFlags ?? []), ...options.args];
  const child = spawn(command!, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
    detached: options.wrap !== undefined,
  });
  const server = { child, port, logFile: options.logFile };
  await ready(server, options.readyPath ?? '/', options.listeners ?? 0, options.listenPattern ?? /listening/);
  return server;
}

/** SIGTERM, then wait for the exit (a graceful shutdown writes the CPU profile and the probe's last figures). */
export function stop(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    // A wrapped server: the whole group, so that the server itself hears it, not only its wrapper.
    if (server.child.spawnargs[0] !== process.execPath) process.kill(-server.child.pid!, 'SIGTERM');
    else server.child.kill('SIGTERM');
  });
}

/** Resident memory of a process, MiB, from /proc/<pid>/status. */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return line === undefined ? 0 : Math.round(Number(line.replace(/\D+/g, '')) / 1024);
}

/** The most resident memory a process has had since it started (VmHWM: no peak between two samples is missed), MiB. */
export function peakRssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return line === undefined ? 0 : Math.round(Number(line.replace(/\D+/g, '')) / 1024);
}

/** The node process of a server: itself, or the first child of its wrapper (strace). */
export function serverPid(server: Server): number {
  const pid = server.child.pid!;
  if (server.child.spawnargs[0] === process.execPath) return pid;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
  return Number(children[0]);
}

/** Samples a process's RSS every `everyMs` until stopped; answers the peak. */
export function watchRss(pid: number, everyMs = 250): () => number {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // the process ended between two samples
    }
  }, everyMs);
  return () => {
    clearInterval(timer);
    return peak;
  };
}
