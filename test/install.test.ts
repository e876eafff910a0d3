import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, describe, test } from 'node:test';

const ROOT = new URL('..', import.meta.url).pathname;
// The machine's own npm and Node, as a newcomer's `npm ci` finds them: PATH without any node_modules directory
// (npm scripts, and the suite's own runs, put node_modules' Node 24 first).
const PATH = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules'));
const npm = PATH.map((dir) => join(dir, 'npm')).find((file) => existsSync(file));
const machineNode = spawnSync('node', ['--version'], { env: { PATH: PATH.join(delimiter) }, encoding: 'utf8' })
  .stdout?.trim()
  .replace(/^v/, '');

/**
 * `npm ci` as the README's quickstart runs it, checked with a dry run: the same lockfile tree, engine checks and
 * install-script checks as the real install, without its downloads (and, an npm quirk, the root's postinstall runs
 * too, so its one line is there). Environment from an `npm test` parent (npm_config_*) and the machine's ~/.npmrc
 * are left out: what keeps it quiet is the project's own .npmrc and package.json.
 */
describe('npm ci on the machine’s own Node', { skip: npm === undefined ? 'no npm on PATH' : false }, () => {
  const home = mkdtempSync(join(tmpdir(), 'plinth-npm-'));
  after(() => rmSync(home, { recursive: true, force: true }));
  const userconfig = join(home, 'npmrc');
  writeFileSync(userconfig, '');
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  const dryRun = (...flags: string[]) =>
    spawnSync(npm!, ['ci', '--dry-run', '--offline', ...flags], {
      cwd: ROOT,
      env: { ...env, PATH: PATH.join(delimiter), npm_config_userconfig: userconfig },
      encoding: 'utf8',
    });

  test('is quiet but for one line saying what it installed and on which Node the scripts run', () => {
    const run = dryRun();
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, '', 'no warnings (EBADENGINE on a Node older than 24, unreviewed install scripts)');
    const lines = run.stdout.split('\n').filter((line) => line.startsWith('plinth:'));
    assert.equal(lines.length, 1, run.stdout);
    assert.match(lines[0]!, /^plinth: installed, with Node\.js 24\.\d+\.\d+ in node_modules: `npm start`, `npm test`/);
    if (machineNode !== undefined && !machineNode.startsWith('24.'))
      assert.ok(lines[0]!.includes(`this machine's Node ${machineNode} only runs npm`), lines[0]);
  });

  test('what the .npmrc keeps out is only the engine warnings: every install script is reviewed', () => {
    const run = dryRun('--loglevel=warn');
    assert.equal(run.status, 0, run.stderr);
    const warnings = run.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm warn EBADENGINE'));
    assert.deepEqual(warnings, []);
  });
});
