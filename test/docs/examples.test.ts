/**
 * Executable docs: the README's and docs/api.md's shell examples run, in order, against a live server, and each
 * answer must be the one the page prints. The convention the pages follow (docs/examples.md says it for writers):
 *
 * - A ```sh (or ```bash) block is a command. Every one runs, top to bottom, in one bash shell per page, so a
 *   variable an example sets (`KEY=…`, `A=$(…)`) is there for the next, as it is for a reader pasting them.
 *   `http://127.0.0.1:8080` is replaced by the test server's address; the shell runs in a temporary directory;
 *   `npm run cli` runs in the checkout, on the server's DATABASE_URL, and any other `npm` command fails.
 * - A ```json, ```text or bare ``` block right after it (blank lines between, no prose) is its answer: the
 *   command's output (stdout and stderr) must equal it once ids (`acct_…`), keys (`sk_test_…`), signing secrets
 *   and times are masked. A JSON answer is compared as values (one or several, one after another; key order and
 *   layout aside); any other answer line by line, where `…` stands for any text and a line of `…` alone for one
 *   or more lines. `# …` lines inside the command are comments for the reader, and are not checked.
 * - Every command must succeed: no command in it may exit non-zero (pipelines included), answer or not; and a
 *   block without an answer may not print a problem (an RFC 9457 body): a refusal meant is shown as the answer.
 * - A command that cannot run here (it installs, starts a server, needs PostgreSQL or a placeholder) has
 *   `<!-- not run: reason -->` as the line just above its fence. No other block is ever skipped, and a page
 *   whose every block is marked fails.
 *
 * SQLite only: the pages show the embedded server, and one pass is what keeps them true.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BACKEND } from '../helpers/database.ts';
import { assertAnswer, type Example, examples, outputs, script } from '../helpers/doc-examples.ts';
import { useServer } from '../helpers/server.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const DOC_URL = 'http://127.0.0.1:8080';
const PROBLEM = /"type":"\/docs\/errors#/;
// An unmarked `npm ci`, `npm start` or `npm run bench` must fail, not reinstall the checkout, start a server or load
// the machine: only `npm run [--silent] cli` runs.
const NPM_RUN_ONLY = `npm() {
  case "$*" in
    "run cli"*|"run --silent cli"*) (cd '${ROOT}' && command npm "$@") ;;
    *) echo "docs test: npm $* does not run here: mark the block <!-- not run: … -->" >&2; return 1 ;;
  esac
}`;

/** Runs the script in its own process group, in `dir`, and kills the whole group if it outlasts two minutes. */
function runScript(file: string, dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [file], { cwd: dir, env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 120_000);
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      if (signal !== null) reject(new Error(`the examples' shell was killed (${signal})`));
      else resolve(stdout);
    });
  });
}

// The pages' commands are bash and curl; without curl the test is skipped, visibly, except in CI (.ci/run installs it).
const NO_CURL = !process.env.CI && spawnSync('curl', ['--version']).status !== 0 && '# SKIPPED: no curl here';
const SKIP = BACKEND === 'postgres' ? 'run on the SQLite pass' : NO_CURL;

for (const page of ['README.md', 'docs/api.md']) {
  describe(`${page}'s shell examples`, { skip: SKIP }, () => {
    const all = examples(readFileSync(join(ROOT, page), 'utf8'));
    const runs = all.filter((e) => e.notRun === undefined);
    const server = useServer();
    // DOCS_EXAMPLES_KEEP=1 keeps each example's output (<dir>/outputs.json, printed below) to paste into the page.
    let dir = '';
    let got = new Map<number, string>();
    after(() =>
      process.env.DOCS_EXAMPLES_KEEP ? console.log(`# outputs in ${dir}`) : rmSync(dir, { recursive: true }),
    );

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'plinth-docs-'));
      const file = join(dir, 'examples.sh');
      writeFileSync(
        file,
        script(runs, dir, NPM_RUN_ONLY, (command) => command.replaceAll(DOC_URL, server.url)),
      );
      const env = { ...process.env, DATABASE_URL: server.databaseUrl, LOG_LEVEL: 'silent' };
      got = outputs(await runScript(file, dir, env));
      if (process.env.DOCS_EXAMPLES_KEEP) writeFileSync(join(dir, 'outputs.json'), JSON.stringify([...got], null, 1));
    });

    test('some examples run, and every one not run says why', () => {
      assert.ok(runs.length > 0, `${page}: no example runs`);
      for (const e of all) assert.ok(e.notRun !== undefined || runs.includes(e), `${page}:${e.line} skipped`);
    });

    runs.forEach((example: Example, i) => {
      test(`${page}:${example.line} ${example.command.split('\n')[0]!.slice(0, 60)}`, () => {
        const out = got.get(i);
        assert.ok(out !== undefined, `${page}:${example.line} never ran (a shell syntax error?)`);
        const failFile = join(dir, `${i}.fail`);
        const failed = existsSync(failFile) ? readFileSync(failFile, 'utf8') : '';
        assert.equal(failed, '', `${page}:${example.line} failed; its output:\n${out}`);
        if (example.answer !== undefined) assertAnswer(out, example.answer, `${page}:${example.line}`);
        else assert.doesNotMatch(out, PROBLEM, `${page}:${example.line} was refused; show the problem as its answer`);
      });
    });
  });
}
