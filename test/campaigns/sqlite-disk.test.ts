import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { BACKEND } from '../helpers/database.ts';
import { type ServerProcess, spawnServer } from '../helpers/process.ts';
import { CAMPAIGN_ENV } from './load.ts';
import { assertOnly200or503, oks, signUp, startLoad, unavailable } from './outage-load.ts';

/**
 * The SQLite disk fills up, empties, then stops taking writes, under load (issue 11). The database lives on a small
 * ext4 image mounted for this test. Full → 503, and back by itself when space returns; then the filesystem shuts
 * down (EXT4_IOC_SHUTDOWN after flushing its journal: every later write and fsync fails, as on a disk that died)
 * → 503; afterwards nothing acknowledged is missing and PRAGMA integrity_check is ok. Needs root (mount, loop
 * devices) and python3 (for the ioctl): skipped visibly without a mount.
 *
 * Why not "remount read-only": tmpfs and ext4 both refuse it while a file is open for writing; and ext4's own
 * errors=remount-ro (sysfs trigger_fs_error) was tried first and is unusable as a test of durability: on this
 * kernel an already-open file still takes writes into the page cache and fsync returns success without writing
 * anything, so a commit acknowledged in that instant is lost at unmount. No database can see that lie.
 */
const sh = (cmd: string, ...args: string[]) => execFileSync(cmd, args, { stdio: 'pipe' }).toString().trim();

function mountSmallDisk(dir: string): boolean {
  try {
    sh('truncate', '-s', '16M', `${dir}.img`);
    sh('mkfs.ext4', '-q', '-F', '-m', '0', `${dir}.img`); // no blocks kept for root: the server runs as root here
    sh('mount', '-o', 'loop', `${dir}.img`, dir);
    return true;
  } catch {
    return false;
  }
}

/** EXT4_IOC_SHUTDOWN with EXT4_GOING_FLAGS_LOGFLUSH: the journal is flushed, then every write and fsync fails. */
function shutDown(mountPoint: string): void {
  const ioctl =
    'import fcntl,os,struct,sys; fcntl.ioctl(os.open(sys.argv[1], os.O_RDONLY), 0x8004587D, struct.pack("I", 1))';
  sh('python3', '-c', ioctl, mountPoint);
}

/** Writes `path` until the disk refuses another byte (bounded by the disk's size). */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096);
  try {
    for (let i = 0; i < 16 * 256; i++) writeSync(fd, chunk);
    assert.fail('a 16 MiB disk took 16 MiB more');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

test('a full, then dead SQLite disk: 503, nothing acknowledged lost, integrity ok', {
  skip: BACKEND !== 'sqlite' && 'SQLite pass only',
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-disk-'));
  if (!mountSmallDisk(dir)) {
    rmSync(`${dir}.img`, { force: true });
    rmSync(dir, { recursive: true, force: true });
    t.skip('SKIPPED: mounting a loop ext4 image is not permitted here (needs root and loop devices)');
    return;
  }
  const database = join(dir, 'plinth.db');
  let server: ServerProcess | undefined;
  try {
    server = await spawnServer({ DATABASE_URL: `sqlite:${database}`, ...CAMPAIGN_ENV });
    const key = await signUp(server);
    const load = startLoad(server.url, key);
    try {
      await load.until((a) => oks(a) >= 50, '50 creates');
      fill(join(dir, 'filler'));
      const fullAt = load.answers.length;
      await load.until((a) => unavailable(a.slice(fullAt)) >= 20, '20 answers of 503 on a full disk');
      unlinkSync(join(dir, 'filler'));
      const freedAt = load.answers.length;
      await load.until((a) => oks(a.slice(freedAt)) >= 50, '50 creates once space came back');
      shutDown(dir);
      const deadAt = load.answers.length;
      await load.until((a) => unavailable(a.slice(deadAt)) >= 20, '20 answers of 503 once the disk takes no writes');
    } finally {
      await load.stop();
    }
    t.diagnostic(`${load.answers.length} requests: ${oks(load.answers)} × 200, ${unavailable(load.answers)} × 503`);
    assertOnly200or503(server, load); // a dead disk serves no reads either: the file is checked below instead
    server.child.kill('SIGTERM');
    await server.exited;
    // The disk is checked and mounted again (as an operator would) before the file is examined.
    sh('umount', dir);
    const fsck = spawnSync('e2fsck', ['-f', '-y', `${dir}.img`], { stdio: 'ignore' });
    assert.ok(fsck.status === 0 || fsck.status === 1, `e2fsck exited ${fsck.status}`); // 1: it fixed something
    sh('mount', '-o', 'loop', `${dir}.img`, dir);
    const db = new DatabaseSync(database);
    const integrity = db.prepare('PRAGMA integrity_check').all();
    assert.deepEqual(
      integrity.map((r) => r.integrity_check),
      ['ok'],
    );
    const stored = new Set(
      db
        .prepare('SELECT id FROM accounts')
        .all()
        .map((r) => r.id),
    );
    db.close();
    for (const a of load.answers.filter((x) => x.status === 200)) assert.ok(stored.has(a.id), `${a.id} was lost`);
  } finally {
    server?.child.kill('SIGKILL'); // a no-op once it has exited; nothing may keep the disk busy
    await server?.exited;
    try {
      sh('umount', dir);
    } catch {}
    rmSync(`${dir}.img`, { force: true });
    const stillMounted = sh('findmnt', '-n', '-l', '-o', 'TARGET').split('\n').includes(dir);
    if (!stillMounted) rmSync(dir, { recursive: true, force: true });
  }
});
