/**
 * The history's two verifiers, as a test runs them (docs/api.md#verifying-the-history): `cli audit verify`, which
 * reads the database, and the Python verifier printed in the guide, which sees only the HTTP API and the pinned key.
 * The Python is taken from the page itself, so that what readers copy is what the tests run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { ROOT, run } from './process.ts';

const CRYPTOGRAPHY = 'cryptography==46.0.3';

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The guide's Python verifier: the first ```python block of its "Verifying the history" section. */
export function pythonFromTheGuide(): string {
  const page = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  const start = page.indexOf('\n## Verifying the history\n');
  if (start < 0) throw new Error('docs/api.md has no "Verifying the history" section');
  const section = page.slice(start, page.indexOf('\n## ', start + 1));
  const block = /\n```python\n([\s\S]*?)\n```\n/.exec(section);
  if (block === null) throw new Error('docs/api.md, "Verifying the history": no ```python block');
  return `${block[1]}\n`;
}

/** PyPI's cryptography (Ed25519), installed once per machine beside the other test caches; or why it cannot be. */
export function installCryptography(): { path: string } | { skip: string } {
  if (spawnSync('python3', ['--version']).error !== undefined)
    return { skip: "python3 is not installed: the guide's verifier needs it" };
  const target = join(tmpdir(), `plinth-${CRYPTOGRAPHY.replace('==', '-')}`);
  if (!existsSync(join(target, 'cryptography', '__init__.py'))) {
    const pip = spawnSync('python3', ['-m', 'pip', 'install', '--quiet', '--target', target, CRYPTOGRAPHY]);
    if (pip.status !== 0) return { skip: `pip could not install ${CRYPTOGRAPHY}: ${pip.stderr.toString().trim()}` };
  }
  return { path: target };
}

/**
 * A temporary directory for the suite (removed after it), holding the guide's verifier as `verify.py`, and a runner
 * for it: `python3 verify.py BASE_URL PUBLIC_KEYS [SAVED_FILE…]` with the API key in PLINTH_API_KEY, as the guide
 * says to run it.
 */
export function pythonVerifier(cryptography: { path: string } | { skip: string }) {
  let dir = '';
  const file = () => {
    if (dir === '') {
      dir = mkdtempSync(join(tmpdir(), 'plinth-verify-'));
      writeFileSync(join(dir, 'verify.py'), pythonFromTheGuide());
    }
    return dir;
  };
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** Writes a file the customer kept (a checkpoint, a webhook body) into the directory; returns its path. */
    keep(name: string, content: string): string {
      const path = join(file(), name);
      writeFileSync(path, content);
      return path;
    },
    run(base: string, apiKey: string, publicKeys: string[], saved: string[] = []): Promise<Outcome> {
      if (!('path' in cryptography)) throw new Error(cryptography.skip);
      const child = spawn('python3', [join(file(), 'verify.py'), base, publicKeys.join(','), ...saved], {
        env: { ...process.env, PLINTH_API_KEY: apiKey, PYTHONPATH: cryptography.path },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
    },
  };
}

/** `npm run --silent cli -- audit verify --org ORG --mode MODE [--checkpoint FILE]` on the server's database. */
export function cliVerify(databaseUrl: string, org: string, mode: string, checkpoint?: string): Promise<Outcome> {
  const args = ['src/cli/main.ts', 'audit', 'verify', '--org', org, '--mode', mode];
  return run(checkpoint === undefined ? args : [...args, '--checkpoint', checkpoint], { DATABASE_URL: databaseUrl });
}

/** The sequence a verifier's FAILED line names (`FAILED: plinth/…: sequence 12: …`), or null. */
export function sequenceNamed(outcome: Outcome): number | null {
  const match = /^FAILED: .*?: sequence (\d+): /m.exec(outcome.stdout);
  return match === null ? null : Number(match[1]);
}
