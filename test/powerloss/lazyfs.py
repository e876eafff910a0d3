#!/usr/bin/python3
"""A lazy file system: what a power cut leaves of the files written on it (docs/deploy.md, "Power loss").

    /usr/bin/python3 test/powerloss/lazyfs.py BACKING MOUNTPOINT

A FUSE passthrough (Debian's python3-pyfuse3) over the directory BACKING, which plays the disk: it holds what is
durable, nothing else. What a program writes stays in this process's memory, its page cache, until the program asks
for it to be durable, as a real disk's page cache would, only without ever writing back on its own:

  - a file's bytes (writes, truncations) reach BACKING when that file is fsynced (fsync and fdatasync alike);
  - a directory entry (a new file's name, a rename, a link, an unlink) reaches BACKING when the directory is fsynced.

That is the worst a POSIX file system may do (ext4 usually does more: its fsync of a new file often commits the
entry too). A power cut, then, is this process's memory lost: everything unsynced is dropped, on command (below) or
when the file system is unmounted or this process dies. The kernel's own page cache is no obstacle: FUSE writes
through it to this process at once (no writeback cache), and a new mount starts with it empty.

Control, through the file `.lazyfs` at the root of the mount (not listed; each write is one command):
  cut                         power cut now: drop everything unsynced; from then on every operation fails with EIO
                              (nothing can become durable after the power is gone) until the next mount
  cut-on OP NAME PID [NTH]    the same cut, just before the NTH (default 1) OP (`write` or `fsync`) on the file NAME,
                              after stopping process PID with SIGSTOP, so that it runs no further: a cut inside a
                              checkpoint (`write plinth.db`) or just before a WAL sync (`fsync plinth.db-wal`)
Reading it answers `state alive|cut`, `trigger armed|fired|none`, `unsynced_bytes N`, `unsynced_names N`,
`dropped_bytes N` (what the last cut dropped), then `size NAME N` and `reach NAME N` for each file (reach: the end
of the furthest write since the last write at offset 0; for a WAL, how far its current frames go).

Only the root directory is served (no subdirectories): enough for a database, its WAL and its key file. Modes,
owners and times are kept in BACKING at once (metadata other than names and sizes is not modelled).

Layout of BACKING: each file's bytes live in `.lazyfs/inodes/<n>` (n: that file's inode number in BACKING), and each
durable name is a hard link to it. A file whose name was never made durable is an orphan there, removed at the next
mount, as fsck would.
"""

import errno
import os
import signal
import stat
import sys

import pyfuse3
import trio

BLOCK = 4096
CONTROL = b'.lazyfs'
CONTROL_INODE = 2**62
STATE = b'.lazyfs'  # BACKING/.lazyfs: the inode files; never a name in the mount


class Inode:
    """A file: its durable bytes in BACKING, and what was written since its last fsync."""

    def __init__(self, path):
        self.path = path
        self.size = os.stat(path).st_size  # the size programs see
        # Bytes of the backing file at or past this offset are read as zeros: a truncation not yet synced.
        self.durable_limit = self.size
        self.dirty = {}  # block number → bytearray(BLOCK): the blocks written since the last fsync
        # The end of the furthest write since the last write at offset 0: for a WAL, which rewrites its header when it
        # starts over, how far its current generation of frames reaches.
        self.reach = 0

    def _durable(self, offset, length):
        """`length` bytes at `offset` as they are on disk (zeros past its end or past a pending truncation)."""
        available = max(0, min(offset + length, self.durable_limit) - offset)
        fd = os.open(self.path, os.O_RDONLY)
        try:
            data = os.pread(fd, available, offset) if available > 0 else b''
        finally:
            os.close(fd)
        return bytearray(data) + bytearray(length - len(data))

    def read(self, offset, length):
        length = max(0, min(length, self.size - offset))
        data = self._durable(offset, length)
        for block in range(offset // BLOCK, (offset + length + BLOCK - 1) // BLOCK):
            if block in self.dirty:
                start = max(offset, block * BLOCK)
                end = min(offset + length, (block + 1) * BLOCK)
                data[start - offset : end - offset] = self.dirty[block][start - block * BLOCK : end - block * BLOCK]
        return bytes(data)

    def write(self, offset, buf):
        self.reach = offset + len(buf) if offset == 0 else max(self.reach, offset + len(buf))
        position = offset
        while position < offset + len(buf):
            block = position // BLOCK
            if block not in self.dirty:
                self.dirty[block] = self._durable(block * BLOCK, BLOCK) if block * BLOCK < self.size else bytearray(BLOCK)
            end = min(offset + len(buf), (block + 1) * BLOCK)
            self.dirty[block][position - block * BLOCK : end - block * BLOCK] = buf[position - offset : end - offset]
            position = end
        self.size = max(self.size, offset + len(buf))
        return len(buf)

    def truncate(self, size):
        if size < self.size:
            self.durable_limit = min(self.durable_limit, size)
            for block in [b for b in self.dirty if b * BLOCK >= size]:
                del self.dirty[block]
            if size // BLOCK in self.dirty:  # the block the file now ends in: zeros after the end
                tail = size % BLOCK
                self.dirty[size // BLOCK][tail:] = bytearray(BLOCK - tail)
        self.size = size

    def sync(self):
        """fsync: the disk gets the file as programs see it. (BACKING itself is not fsynced: the simulated power
        cut is this process losing its memory; the machine under BACKING keeps running.)"""
        fd = os.open(self.path, os.O_RDWR)
        try:
            os.ftruncate(fd, min(os.fstat(fd).st_size, self.durable_limit))
            for block, data in self.dirty.items():
                length = min(BLOCK, self.size - block * BLOCK)
                if length > 0:
                    os.pwrite(fd, bytes(data[:length]), block * BLOCK)
            os.ftruncate(fd, self.size)
        finally:
            os.close(fd)
        self.dirty.clear()
        self.durable_limit = self.size

    def unsynced_bytes(self):
        return len(self.dirty) * BLOCK + (1 if self.durable_limit < self.size else 0)


class LazyFS(pyfuse3.Operations):
    enable_writeback_cache = False  # every write reaches this process at once

    def __init__(self, backing):
        super().__init__()
        self.backing = backing
        self.inodes_dir = os.path.join(backing, STATE.decode(), 'inodes')
        self.inodes = {}  # inode number → Inode
        self.durable = {}  # name → inode number: the directory as on disk
        self.names = {}  # name → inode number: the directory as programs see it
        self.dead = False
        self.trigger = None  # [op, name, pid, remaining] while armed
        self.trigger_state = 'none'
        self.dropped = 0  # unsynced bytes the last cut dropped
        self._load()

    def _load(self):
        """The disk as the power cut left it: every durable name, and its file's durable bytes; orphans removed."""
        os.makedirs(self.inodes_dir, exist_ok=True)
        for leftover in os.listdir(self.inodes_dir):
            os.unlink(os.path.join(self.inodes_dir, leftover))
        for entry in os.listdir(self.backing):
            name = os.fsencode(entry)
            if name == STATE:
                continue
            path = os.path.join(self.backing, entry)
            number = os.stat(path).st_ino
            if number not in self.inodes:
                os.link(path, os.path.join(self.inodes_dir, str(number)))
                self.inodes[number] = Inode(os.path.join(self.inodes_dir, str(number)))
            self.durable[name] = number
        self.names = dict(self.durable)

    # The power cut, and the commands that ask for it.

    def cut(self):
        self.dropped = sum(i.unsynced_bytes() for i in self.inodes.values())
        self.dead = True
        for inode in self.inodes.values():
            inode.dirty.clear()
            inode.size = inode.durable_limit = os.stat(inode.path).st_size
        self.names = dict(self.durable)

    def _alive(self, op=None, number=None):
        """EIO once the power is gone; a cut first when `op` on the inode `number` is the armed trigger."""
        if self.trigger is not None and op == self.trigger[0]:
            if any(n == number and name == self.trigger[1] for name, n in self.names.items()):
                self.trigger[3] -= 1
                if self.trigger[3] == 0:
                    try:
                        os.kill(self.trigger[2], signal.SIGSTOP)
                    except ProcessLookupError:
                        pass
                    self.trigger, self.trigger_state = None, 'fired'
                    self.cut()
        if self.dead:
            raise pyfuse3.FUSEError(errno.EIO)

    def _command(self, text):
        words = text.split()
        if words == ['cut']:
            self.cut()
        elif len(words) in (4, 5) and words[0] == 'cut-on' and words[1] in ('write', 'fsync'):
            nth = int(words[4]) if len(words) == 5 else 1
            self.trigger = [words[1], os.fsencode(words[2]), int(words[3]), nth]
            self.trigger_state = 'armed'
        else:
            raise pyfuse3.FUSEError(errno.EINVAL)

    def _status(self):
        lines = [
            f'state {"cut" if self.dead else "alive"}',
            f'trigger {self.trigger_state}',
            f'unsynced_bytes {sum(i.unsynced_bytes() for i in self.inodes.values())}',
            f'unsynced_names {len(set(self.names.items()) ^ set(self.durable.items()))}',
            f'dropped_bytes {self.dropped}',
        ]
        lines += [f'size {os.fsdecode(n)} {self.inodes[i].size}' for n, i in sorted(self.names.items())]
        lines += [f'reach {os.fsdecode(n)} {self.inodes[i].reach}' for n, i in sorted(self.names.items())]
        return ('\n'.join(lines) + '\n').encode()

    # Attributes and names.

    def _attributes(self, number):
        entry = pyfuse3.EntryAttributes()
        entry.entry_timeout = entry.attr_timeout = 0  # the kernel asks each time: names change under it here
        if number == pyfuse3.ROOT_INODE:
            st = os.stat(self.backing)
            entry.st_mode, entry.st_nlink, entry.st_size = st.st_mode, 2, 0
        elif number == CONTROL_INODE:
            st = os.stat(self.backing)
            entry.st_mode, entry.st_nlink, entry.st_size = stat.S_IFREG | 0o600, 1, 1 << 20
        else:
            inode = self.inodes[number]
            st = os.stat(inode.path)
            entry.st_mode, entry.st_size = st.st_mode, inode.size
            entry.st_nlink = max(1, sum(1 for n in self.names.values() if n == number))
        entry.st_ino = number
        entry.st_uid, entry.st_gid = st.st_uid, st.st_gid
        entry.st_blksize = BLOCK
        entry.st_blocks = (entry.st_size + 511) // 512
        entry.st_atime_ns, entry.st_mtime_ns, entry.st_ctime_ns = st.st_atime_ns, st.st_mtime_ns, st.st_ctime_ns
        return entry

    @staticmethod
    def _root_only(parent):
        if parent != pyfuse3.ROOT_INODE:
            raise pyfuse3.FUSEError(errno.ENOENT)

    async def lookup(self, parent_inode, name, ctx=None):
        self._root_only(parent_inode)
        if name == CONTROL:
            return self._attributes(CONTROL_INODE)
        if name == b'.' or name == b'..':
            return self._attributes(pyfuse3.ROOT_INODE)
        self._alive()
        if name not in self.names:
            raise pyfuse3.FUSEError(errno.ENOENT)
        return self._attributes(self.names[name])

    async def getattr(self, inode, ctx=None):
        if inode not in (pyfuse3.ROOT_INODE, CONTROL_INODE):
            self._alive()
        return self._attributes(inode)

    async def setattr(self, inode, attr, fields, fh, ctx):
        self._alive()
        if inode in (pyfuse3.ROOT_INODE, CONTROL_INODE):
            raise pyfuse3.FUSEError(errno.EPERM)
        target = self.inodes[inode]
        if fields.update_size:
            target.truncate(attr.st_size)
        if fields.update_mode:
            os.chmod(target.path, stat.S_IMODE(attr.st_mode))
        if fields.update_uid or fields.update_gid:
            os.chown(target.path, attr.st_uid if fields.update_uid else -1, attr.st_gid if fields.update_gid else -1)
        if fields.update_atime or fields.update_mtime:
            st = os.stat(target.path)
            os.utime(
                target.path,
                ns=(
                    attr.st_atime_ns if fields.update_atime else st.st_atime_ns,
                    attr.st_mtime_ns if fields.update_mtime else st.st_mtime_ns,
                ),
            )
        return self._attributes(inode)

    async def opendir(self, inode, ctx):
        self._root_only(inode)
        return inode

    async def readdir(self, fh, start_id, token):
        self._alive()
        entries = sorted(self.names.items())
        for index, (name, number) in enumerate(entries[start_id:], start_id):
            if not pyfuse3.readdir_reply(token, name, self._attributes(number), index + 1):
                break

    async def releasedir(self, fh):
        pass

    async def fsyncdir(self, fh, datasync):
        """The directory's names, as programs see them, become the names on disk."""
        self._alive()
        for name, number in self.durable.items():
            if self.names.get(name) != number:
                os.unlink(os.path.join(self.backing, os.fsdecode(name)))
        for name, number in self.names.items():
            if self.durable.get(name) != number:
                os.link(self.inodes[number].path, os.path.join(self.backing, os.fsdecode(name)))
        self.durable = dict(self.names)

    async def create(self, parent_inode, name, mode, flags, ctx):
        self._root_only(parent_inode)
        self._alive()
        if name == CONTROL or name in self.names:
            raise pyfuse3.FUSEError(errno.EEXIST)
        # The new file's inode, on disk at once but an orphan until the directory is synced.
        partial = os.path.join(self.inodes_dir, 'new')
        fd = os.open(partial, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
        os.fchmod(fd, stat.S_IMODE(mode) & ~ctx.umask)
        number = os.fstat(fd).st_ino
        os.close(fd)
        path = os.path.join(self.inodes_dir, str(number))
        os.rename(partial, path)
        self.inodes[number] = Inode(path)
        self.names[name] = number
        return pyfuse3.FileInfo(fh=number), self._attributes(number)

    async def link(self, inode, new_parent_inode, new_name, ctx):
        self._root_only(new_parent_inode)
        self._alive()
        if new_name == CONTROL or new_name in self.names:
            raise pyfuse3.FUSEError(errno.EEXIST)
        self.names[new_name] = inode
        return self._attributes(inode)

    async def unlink(self, parent_inode, name, ctx):
        self._root_only(parent_inode)
        self._alive()
        if name not in self.names:
            raise pyfuse3.FUSEError(errno.ENOENT)
        del self.names[name]  # the bytes stay while open; the inode file goes at the next mount if nothing names it

    async def rename(self, parent_inode_old, name_old, parent_inode_new, name_new, flags, ctx):
        self._root_only(parent_inode_old)
        self._root_only(parent_inode_new)
        self._alive()
        if flags != 0:
            raise pyfuse3.FUSEError(errno.EINVAL)
        if name_old not in self.names:
            raise pyfuse3.FUSEError(errno.ENOENT)
        if CONTROL in (name_old, name_new):
            raise pyfuse3.FUSEError(errno.EPERM)
        self.names[name_new] = self.names.pop(name_old)

    async def mkdir(self, parent_inode, name, mode, ctx):
        raise pyfuse3.FUSEError(errno.EPERM)  # the root directory only

    async def mknod(self, parent_inode, name, mode, rdev, ctx):
        raise pyfuse3.FUSEError(errno.EPERM)

    # Bytes.

    async def open(self, inode, flags, ctx):
        if inode == CONTROL_INODE:
            return pyfuse3.FileInfo(fh=inode, direct_io=True)  # never cached: each read asks anew
        self._alive()
        return pyfuse3.FileInfo(fh=inode)

    async def read(self, fh, off, size):
        if fh == CONTROL_INODE:
            return self._status()[off : off + size]
        self._alive()
        return self.inodes[fh].read(off, size)

    async def write(self, fh, off, buf):
        if fh == CONTROL_INODE:
            self._command(buf.decode())
            return len(buf)
        self._alive('write', fh)
        return self.inodes[fh].write(off, buf)

    async def fsync(self, fh, datasync):
        if fh == CONTROL_INODE:
            return
        self._alive('fsync', fh)
        self.inodes[fh].sync()

    async def flush(self, fh):
        pass

    async def release(self, fh):
        pass

    async def forget(self, inode_list):
        pass

    async def statfs(self, ctx):
        st = os.statvfs(self.backing)
        data = pyfuse3.StatvfsData()
        for field in ('f_bsize', 'f_frsize', 'f_blocks', 'f_bfree', 'f_bavail', 'f_files', 'f_ffree', 'f_favail'):
            setattr(data, field, getattr(st, field))
        data.f_namemax = st.f_namemax
        return data


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: lazyfs.py BACKING MOUNTPOINT')
    backing, mountpoint = sys.argv[1], sys.argv[2]
    pyfuse3.init(LazyFS(backing), mountpoint, set(pyfuse3.default_options) | {'fsname=plinth-lazyfs'})
    print('mounted', flush=True)  # the campaign waits for this line
    try:
        trio.run(pyfuse3.main)
    finally:
        pyfuse3.close(unmount=False)  # `fusermount3 -u` unmounted it; what was unsynced dies with this process


if __name__ == '__main__':
    main()
