import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface DurableWrite {
  /** The file's mode when created (default 0o644, less the umask). */
  mode?: number;
  /**
   * Never replace an existing file: throws EEXIST as `writeFileSync(…, { flag: 'wx' })` would, so that of two
   * processes writing at once only one wins and both read the winner's bytes.
   */
  exclusive?: boolean;
}

/** fsync of a directory: makes the names created, renamed or removed in it survive a power cut. */
export function syncDirectory(directory: string): void {
  const fd = openSync(directory, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `data` to `path` so that after a crash or a power cut the file is either absent (or its old version) or
 * complete, never empty or torn (docs/deploy.md, "Power loss"). `writeFileSync` alone leaves the bytes in the page
 * cache: a power cut seconds later can leave a file of 0 bytes under the new name. So: the bytes go to a temporary
 * name beside it, which is fsynced; the temporary is renamed over the name (or, `exclusive`, hard-linked to it, which
 * fails when the name exists); the directory is fsynced, which makes the new name itself durable.
 */
export function writeFileDurably(path: string, data: string | Uint8Array, options: DurableWrite = {}): void {
  const directory = dirname(path);
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fd = openSync(temporary, 'wx', options.mode ?? 0o644);
  try {
    try {
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (options.exclusive) linkOrCopy(temporary, path, bytes, options.mode);
    else renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true }); // after a link, the second name; after a failure, the partial file
  }
  syncDirectory(directory);
}

/**
 * link(2), the atomic "create if absent"; on a file system without hard links, the file created exclusively under
 * its name and synced there (a cut in between can then leave it empty, which the caller must refuse, as
 * key-source.ts does).
 */
function linkOrCopy(temporary: string, path: string, bytes: Uint8Array, mode = 0o644): void {
  try {
    linkSync(temporary, path);
    return;
  } catch (error) {
    if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'].includes((error as NodeJS.ErrnoException).code ?? ''))
      throw error;
  }
  const fd = openSync(path, 'wx', mode);
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
