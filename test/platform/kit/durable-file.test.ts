/**
 * Files the server writes reach stable storage before their name does (issue 39, item 11): strace shows, for the docs
 * cache, the bytes fsynced under a temporary name, the rename, then the directory fsynced. Before, the cache was
 * written with writeFileSync and renamed with no fsync at all (and the secrets key file likewise:
 * test/powerloss/key-file.test.ts cuts the power under it).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../../helpers/process.ts';

const strace = spawnSync('strace', ['-f', '-o', '/dev/null', 'true']);
const straceSkip =
  (strace.error !== undefined || strace.status !== 0) && !process.env.CI
    ? 'strace is missing or cannot trace here'
    : false;

test('the rendered reference is fsynced, renamed into place, and its directory fsynced', {
  skip: straceSkip,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-durable-file-'));
  try {
    // A document of its own, so that the cache holds no render of it yet.
    const script = `import { renderedReference } from ${JSON.stringify(join(ROOT, 'src/platform/docs/reference.ts'))};
      await renderedReference(JSON.stringify({ openapi: '3.1.0', info: { title: '${dir}', version: '1' }, paths: {} }));`;
    const trace = join(dir, 'trace');
    const traced = spawnSync(
      'strace',
      ['-f', '-qq', '-e', 'trace=openat,fsync,fdatasync,rename', '-o', trace, process.execPath, '--input-type=module'],
      { cwd: ROOT, input: script, encoding: 'utf8' },
    );
    assert.equal(traced.status, 0, traced.stderr);
    const calls = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => line.includes('.tmp/docs') || /fsync|fdatasync/.test(line));
    // fd numbers → the path each was opened on, to name what each fsync synced.
    const opened = new Map<string, string>();
    const events: string[] = [];
    for (const line of calls) {
      const open = /openat\(AT_FDCWD, "([^"]+)".*= (\d+)$/.exec(line);
      if (open) opened.set(open[2]!, open[1]!);
      const sync = /(?:fsync|fdatasync)\((\d+)\)\s+= 0/.exec(line);
      if (sync && opened.get(sync[1]!)?.includes('.tmp/docs')) events.push(`fsync ${opened.get(sync[1]!)}`);
      const rename = /rename\("([^"]+)", "([^"]+)"\) = 0/.exec(line);
      if (rename) events.push(`rename ${rename[2]}`);
    }
    for (const ext of ['js', 'html']) {
      const renamed = events.findIndex((e) => e.startsWith('rename') && e.endsWith(`.${ext}`));
      assert.ok(renamed > 0, `the .${ext} render was renamed into place: ${events.join('; ')}`);
      assert.match(events[renamed - 1]!, new RegExp(`^fsync .*\\.${ext}\\..*\\.tmp$`), 'its bytes fsynced first');
      assert.match(events[renamed + 1] ?? '', /^fsync .*\/\.tmp\/docs\/?$/, 'then its directory');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
