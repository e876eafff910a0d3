/**
 * The shell examples of a markdown page, and how to run them and compare their answers (test/docs/examples.test.ts
 * states the convention). Parsing and comparing only: no server, no process.
 */
import assert from 'node:assert/strict';

export interface Example {
  /** The page's 1-based line of the opening fence. */
  line: number;
  command: string;
  /** The answer printed below the command, when one is. */
  answer?: string;
  /** Why the command is not run, from a `<!-- not run: reason -->` line just above it. */
  notRun?: string;
}

const SHELL = new Set(['sh', 'bash', 'shell']);
const ANSWER = new Set(['json', 'text', '']);
const NOT_RUN = /^<!--\s*not run:\s*(.+?)\s*-->$/;

interface Fence {
  line: number;
  info: string;
  body: string;
  /** The last non-blank line above the fence. */
  above: string;
  /** The fence's closing line, 0-based. */
  end: number;
}

function fences(page: string): Fence[] {
  const lines = page.split('\n');
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    let up = i - 1;
    while (up >= 0 && lines[up]!.trim() === '') up--;
    const above = up >= 0 ? lines[up]!.trim() : '';
    found.push({ line: i + 1, info: open[1]!, body: lines.slice(i + 1, end).join('\n'), above, end });
    i = end;
  }
  return found;
}

/** Every shell block of the page, in order, each with the answer block that directly follows it (blank lines aside). */
export function examples(page: string): Example[] {
  const all = fences(page);
  const lines = page.split('\n');
  const out: Example[] = [];
  all.forEach((fence, i) => {
    if (!SHELL.has(fence.info)) return;
    const next = all[i + 1];
    const between = next === undefined ? [] : lines.slice(fence.end + 1, next.line - 1);
    const adjacent = next !== undefined && between.every((l) => l.trim() === '') && ANSWER.has(next.info);
    const notRun = NOT_RUN.exec(fence.above)?.[1];
    out.push({
      line: fence.line,
      command: fence.body,
      ...(adjacent ? { answer: next.body } : {}),
      ...(notRun === undefined ? {} : { notRun }),
    });
  });
  return out;
}

/** What differs from run to run, replaced by a placeholder: ids, keys, secrets, times. */
export function mask(text: string): string {
  return text
    .replace(/\b(sk|rk)_(test|live)_[A-Za-z0-9…]+/g, '$1_$2_…')
    .replace(/\bwhsec_[A-Za-z0-9+/=…]+/g, 'whsec_…')
    .replace(/\b([a-z]{2,6})_[0-9A-Z]{26}\b/g, '$1_…')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)/g, '<time>');
}

/**
 * The JSON values of a text, one after another (curl prints several answers with nothing between them, an answer
 * block one a line, or one over many); undefined when it is not only JSON objects and arrays.
 */
function jsonValues(text: string): unknown[] | undefined {
  const values: unknown[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"' && depth > 0) inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if (c === '}' || c === ']') {
      if (--depth < 0) return undefined;
      if (depth === 0) values.push(parseOrUndefined(text.slice(start, i + 1)));
    } else if (depth === 0 && c.trim() !== '') return undefined;
  }
  return depth === 0 && values.length > 0 && !values.includes(undefined) ? values : undefined;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Fails unless `actual` is the `answer` printed in the docs, once both are masked. A JSON answer is compared as
 * values (key order and layout aside); any other answer line by line, where `…` stands for any text,
 * and a line of `…` alone for one or more lines.
 */
export function assertAnswer(actual: string, answer: string, where: string): void {
  const got = mask(actual.replaceAll('\r\n', '\n')).trimEnd();
  const want = mask(answer).trimEnd();
  const wantJson = jsonValues(want);
  if (wantJson !== undefined) {
    assert.deepEqual(jsonValues(got) ?? got, wantJson, `${where}: the answer differs from the docs`);
    return;
  }
  const pattern = want
    .split('\n')
    .map((line) => (line.trim() === '…' ? '(?:.*\\n)*.*' : literal(line.trimEnd()).replaceAll('…', '.*')))
    .join('\n');
  const gotLines = got
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
  assert.match(gotLines, new RegExp(`^${pattern}$`), `${where}: the answer differs from the docs`);
}

const MARK = '@@plinth-docs-example';

/**
 * One bash script running every example to run, in order, in one shell (so variables carry from one to the next).
 * Each example's output (stdout and stderr, which stay one stream, as on a terminal) is printed between two marks
 * that `outputs` reads; each failing command (pipelines, `$(…)` and functions included) is written to
 * `<dir>/<i>.fail`.
 */
export function script(runs: Example[], dir: string, prelude: string, rewrite: (command: string) => string): string {
  // Through a pipe of its own: Node's pipe is a socket, which `tee /dev/stderr` cannot open as a terminal's can.
  const parts = [
    prelude,
    'exec > >(cat) 2>&1',
    'set -E -o pipefail',
    `trap 'echo "exit $? from: $BASH_COMMAND" >> "$__fail"' ERR`,
  ];
  runs.forEach((example, i) => {
    parts.push(
      `__fail=${dir}/${i}.fail`,
      `printf '\\n${MARK} ${i}\\n'`,
      '{',
      rewrite(example.command),
      '} 2>&1 < /dev/null',
    );
    // A failure inside `a && b` trips no ERR trap: the example's own status catches it.
    parts.push(`__status=$?; [ $__status = 0 ] || echo "the example exited $__status" >> "$__fail"`);
    parts.push(`printf '\\n${MARK} end\\n'`);
  });
  return `${parts.join('\n')}\n`;
}

/** Each example's output from the script's, by its index; an example the shell never reached has none. */
export function outputs(stdout: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const part of stdout.split(`\n${MARK} `).slice(1)) {
    const [index, ...rest] = part.split('\n');
    if (index !== 'end') found.set(Number(index), rest.join('\n'));
  }
  return found;
}
