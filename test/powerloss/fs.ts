import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian's interpreter, the one python3-pyfuse3 is installed for (a pyenv or venv python3 may lack it). */
const PYTHON = '/usr/bin/python3';
const LAZYFS = fileURLToPath(new URL('./lazyfs.py', import.meta.url));
const MOUNT_TIMEOUT_MS = 10_000;

/**
 * Why the lazy file system cannot run here (no /dev/fuse, no fusermount3, no pyfuse3, or a mount refused), or
 * undefined when it can. Tried once, with a real mount.
 */
export function fuseUnavailable(scratch: string): string | undefined {
  if (!existsSync('/dev/fuse')) return '/dev/fuse is missing (a container without --device /dev/fuse?)';
  if (spawnSync('fusermount3', ['-V']).status !== 0) return 'fusermount3 is missing (apt-get install fuse3)';
  const probe = spawnSync(PYTHON, ['-c', 'import pyfuse3, trio']);
  if (probe.status !== 0) return `${PYTHON} cannot import pyfuse3 (apt-get install python3-pyfuse3)`;
  const backing = join(scratch, 'probe-backing');
  const mountpoint = join(scratch, 'probe-mount');
  mkdirSync(backing, { recursive: true });
  mkdirSync(mountpoint, { recursive: true });
  const tried = spawnSync(
    PYTHON,
    [
      '-c',
      // Mount, then unmount at once: what refuses a mount here (no permission, no FUSE in the kernel) shows.
      `import subprocess, sys; p = subprocess.Popen([sys.executable, ${JSON.stringify(LAZYFS)}, sys.argv[1], sys.argv[2]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
line = p.stdout.readline()
if line.strip() != 'mounted': sys.exit(p.stderr.read().strip() or 'no mount')
subprocess.run(['fusermount3', '-u', sys.argv[2]], check=True); p.wait()`,
      backing,
      mountpoint,
    ],
    { encoding: 'utf8', timeout: MOUNT_TIMEOUT_MS },
  );
  if (tried.status !== 0) return `a FUSE mount failed: ${(tried.stderr || tried.stdout || String(tried.error)).trim()}`;
  return undefined;
}

/** test/powerloss/lazyfs.py mounted at `mountpoint` over `backing`, and its control file. */
export class LazyMount {
  /** It can cut the power itself at a given write or fsync (`cut-on`), and count what it dropped. */
  readonly triggers: boolean = true;
  readonly backing: string;
  readonly mountpoint: string;
  private daemon?: ChildProcess;
  private exited?: Promise<void>;

  constructor(backing: string, mountpoint: string) {
    this.backing = backing;
    this.mountpoint = mountpoint;
    mkdirSync(backing, { recursive: true });
    mkdirSync(mountpoint, { recursive: true });
  }

  /** Mounts; resolves once the file system serves. */
  mount(): Promise<void> {
    const daemon = spawn(PYTHON, [LAZYFS, this.backing, this.mountpoint], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.daemon = daemon;
    let stderr = '';
    daemon.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    this.exited = new Promise((resolve) => daemon.on('exit', () => resolve()));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`lazyfs did not mount within ${MOUNT_TIMEOUT_MS} ms`)), 10_000);
      daemon.stdout!.on('data', (chunk: Buffer) => {
        if (!chunk.toString().includes('mounted')) return;
        clearTimeout(timer);
        resolve();
      });
      void this.exited!.then(() => {
        clearTimeout(timer);
        reject(new Error(`lazyfs exited before mounting: ${stderr.trim()}`));
      });
    });
  }

  /** One command to lazyfs.py (`cut`, `cut-on write plinth.db <pid> <nth>`, …). */
  control(command: string): void {
    writeFileSync(join(this.mountpoint, '.lazyfs'), command);
  }

  /** The control file's answer, as name → value (`size <file>` keys for each file's size). */
  status(): Map<string, string> {
    const text = readFileSync(join(this.mountpoint, '.lazyfs'), 'utf8');
    return new Map(
      text
        .trim()
        .split('\n')
        .map((line) => {
          const at = line.lastIndexOf(' ');
          return [line.slice(0, at), line.slice(at + 1)] as [string, string];
        }),
    );
  }

  /**
   * Unmounts, and the daemon exits with whatever was still unsynced: a power cut, if `cut` was not already sent.
   * Every process with a file open on the mount must have ended first.
   */
  async unmount(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const result = spawnSync('fusermount3', ['-u', this.mountpoint], { encoding: 'utf8' });
      if (result.status === 0) break;
      if (attempt === 50) throw new Error(`fusermount3 -u ${this.mountpoint}: ${result.stderr.trim()}`);
      await new Promise((resolve) => setTimeout(resolve, 100)); // a killed process's files are closing
    }
    await this.exited;
    this.daemon = undefined;
  }

  /** After a failure: unmount at once, lazily, whatever still holds it. */
  forceUnmount(): void {
    spawnSync('fusermount3', ['-uz', this.mountpoint]);
    this.daemon?.kill('SIGKILL');
  }
}

/**
 * LazyFS (github.com/dsrhaslab/lazyfs), built from its source, in place of lazyfs.py: for the hand check that both
 * report the same on the campaign's control (docs/deploy.md, "Power loss"). POWERLOSS_LAZYFS names its binary. Only
 * cuts at random moments (`lazyfs::clear-cache`, with the server frozen); directory entries are not lazy in LazyFS.
 */
export class UpstreamLazyMount {
  readonly triggers = false;
  readonly backing: string;
  readonly mountpoint: string;
  private readonly binary: string;
  private readonly fifo: string;
  private readonly config: string;
  private daemon?: ChildProcess;
  private exited?: Promise<void>;

  constructor(binary: string, backing: string, mountpoint: string) {
    this.binary = binary;
    this.backing = backing;
    this.mountpoint = mountpoint;
    mkdirSync(backing, { recursive: true });
    mkdirSync(mountpoint, { recursive: true });
    this.fifo = join(dirname(backing), 'faults.fifo');
    this.config = join(dirname(backing), 'lazyfs.toml');
    writeFileSync(
      this.config,
      `[faults]\nfifo_path="${this.fifo}"\n[cache]\napply_eviction=false\n[cache.simple]\ncustom_size="2gb"\n` +
        'blocks_per_page=1\n[filesystem]\nlog_all_operations=false\nlogfile=""\n',
    );
  }

  async mount(): Promise<void> {
    const args = [this.mountpoint, '--config-path', this.config, '-o', 'allow_other', '-o', 'modules=subdir'];
    const daemon = spawn(this.binary, [...args, '-o', `subdir=${this.backing}`, '-f'], { stdio: 'ignore' });
    this.daemon = daemon;
    this.exited = new Promise((resolve) => daemon.on('exit', () => resolve()));
    for (let i = 0; i < 100; i++) {
      if (readFileSync('/proc/mounts', 'utf8').includes(` ${this.mountpoint} `) && existsSync(this.fifo)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('LazyFS did not mount within 10 s');
  }

  /** `cut`: LazyFS's clear-cache, given a second to finish (the server is frozen meanwhile). */
  control(command: string): void {
    if (command !== 'cut') throw new Error(`LazyFS takes no ${command}`);
    writeFileSync(this.fifo, 'lazyfs::clear-cache\n');
    spawnSync('sleep', ['1']);
  }

  status(): Map<string, string> {
    return new Map([['dropped_bytes', '0']]);
  }

  async unmount(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const result = spawnSync('fusermount3', ['-u', this.mountpoint], { encoding: 'utf8' });
      if (result.status === 0) break;
      if (attempt === 50) throw new Error(`fusermount3 -u ${this.mountpoint}: ${result.stderr.trim()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await this.exited;
  }

  forceUnmount(): void {
    spawnSync('fusermount3', ['-uz', this.mountpoint]);
    this.daemon?.kill('SIGKILL');
  }
}

/** What the campaign needs of either. */
export type PowerCutMount = LazyMount | UpstreamLazyMount;
