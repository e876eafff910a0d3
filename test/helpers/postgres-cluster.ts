import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './redis.ts';

/**
 * A private PostgreSQL cluster (initdb in a temporary directory, its own port on loopback), for tests that stop
 * and start the database itself: the shared one at TEST_POSTGRES_URL serves every other test and must never stop.
 */

/** PostgreSQL's server binaries: initdb on PATH, else Debian's /usr/lib/postgresql/<newest>/bin; null if neither. */
function findBinaries(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb']).stdout.toString().trim();
  if (onPath !== '') return join(onPath, '..');
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return null;
  const versions = readdirSync(debian)
    .filter((v) => existsSync(join(debian, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(debian, versions[0]!, 'bin') : null;
}

/** initdb refuses to run as root: there, the cluster belongs to the `postgres` user (as Debian's own does). */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres']).stdout.toString().trim() || Number.NaN);
  const owner = { uid: id('-u'), gid: id('-g') };
  return Number.isInteger(owner.uid) && Number.isInteger(owner.gid) ? owner : undefined;
}

const BIN = findBinaries();
const OWNER = clusterOwner();

/** Why a private cluster cannot be made here (the test then skips with this line), or false. */
export const PRIVATE_CLUSTER_SKIP: string | false =
  BIN === null
    ? 'no PostgreSQL server binaries (initdb) on this machine'
    : process.getuid?.() === 0 && OWNER === undefined
      ? 'running as root without a postgres user to own a private cluster'
      : false;

export interface PrivateCluster {
  /** A database of its own on the cluster, for a Plinth server. */
  url: string;
  /** Fast shutdown (clients are disconnected, as in a database restart); resolves once the postmaster exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it if running and deletes its directory. */
  destroy(): Promise<void>;
}

const PASSWORD = 'postgres';
const BOUND_MS = 60_000;

function runAsOwner(command: string, args: string[]): void {
  const result = spawnSync(join(BIN!, command), args, { ...OWNER, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.error}`);
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  if (PRIVATE_CLUSTER_SKIP) throw new Error(PRIVATE_CLUSTER_SKIP);
  const dir = mkdtempSync(join(tmpdir(), 'plinth-pg-'));
  const data = join(dir, 'data');
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, `${PASSWORD}\n`);
  if (OWNER) chownSync(dir, OWNER.uid, OWNER.gid);
  if (OWNER) chownSync(passwordFile, OWNER.uid, OWNER.gid);
  // --no-sync only skips initdb's own fsyncs of the template files; the server keeps fsync on (start-up checks).
  runAsOwner('initdb', ['-D', data, '-U', 'postgres', `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '--no-sync']);
  const port = await freePort();
  const admin = `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;
  let postmaster: ChildProcess | null = null;
  let log = '';

  const start = async () => {
    const child = spawn(
      join(BIN!, 'postgres'),
      ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=60'],
      { ...OWNER, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    postmaster = child;
    const deadline = Date.now() + BOUND_MS;
    while (!(await answers(admin))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`private PostgreSQL did not start: ${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const stop = async () => {
    const child = postmaster;
    postmaster = null;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT'); // PostgreSQL's "fast" shutdown
    const force = setTimeout(() => child.kill('SIGQUIT'), BOUND_MS);
    await exited;
    clearTimeout(force);
  };

  await start();
  const setup = new pg.Client({ connectionString: admin });
  await setup.connect();
  await setup.query('create database plinth');
  await setup.end();
  return {
    url: `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/plinth`,
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
