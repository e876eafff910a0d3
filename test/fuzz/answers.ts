/**
 * What the fuzzer's requests got, per operation, counted from the server's own log (one JSON line per request, with
 * its route pattern and status): the figures do not depend on the fuzzer's bookkeeping. scripts/fuzz.ts prints them
 * and fails the run when they show that the fuzzer was not fuzzing (issue 23, finding 8): an operation that only
 * ever got 401 or 403 never reached the code behind authentication, whatever the fuzzer counted as a pass.
 */

export interface Answers {
  total: number;
  /** 2xx: the operation did what it is for. */
  succeeded: number;
  /** 401 or 403: refused before it could do anything. */
  refused: number;
}

/**
 * Answers by operation (`GET /v1/fintech/accounts/:id`), from the server's log lines; other lines, and the requests
 * whose ids `leaveOut` names (the harness's own), are skipped.
 */
export function answersByOperation(
  lines: readonly string[],
  leaveOut: ReadonlySet<string> = new Set(),
): Map<string, Answers> {
  const byOperation = new Map<string, Answers>();
  for (const line of lines) {
    if (!line.includes('"msg":"request"')) continue;
    const entry = JSON.parse(line) as { request_id?: string; method?: string; route?: string | null; status?: number };
    if (entry.request_id !== undefined && leaveOut.has(entry.request_id)) continue;
    const { method, route, status } = entry;
    const name = `${method ?? '(unparsed request)'} ${route ?? '(no route)'}`;
    const answers = byOperation.get(name) ?? { total: 0, succeeded: 0, refused: 0 };
    answers.total += 1;
    if (status !== undefined && status >= 200 && status < 300) answers.succeeded += 1;
    if (status === 401 || status === 403) answers.refused += 1;
    byOperation.set(name, answers);
  }
  return byOperation;
}

/** The document's operations (`GET /v1/fintech/accounts/{id}`) in the log's terms (`GET /v1/fintech/accounts/:id`). */
export function documentedOperations(document: { paths: Record<string, object> }): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}

/**
 * Why the run proves less than it claims, one sentence per reason; empty when every operation was reached and, in
 * every phase that sent it requests, got past authentication at least once. A key revoked midway shows here: every
 * operation the later phases send requests to gets only 401.
 */
export function fuzzingGaps(
  operations: readonly string[],
  byPhase: ReadonlyMap<string, ReadonlyMap<string, Answers>>,
): string[] {
  const gaps: string[] = [];
  for (const operation of operations) {
    if (![...byPhase.values()].some((answers) => answers.has(operation))) gaps.push(`${operation}: never reached`);
    for (const [phase, answers] of byPhase) {
      const got = answers.get(operation);
      if (got !== undefined && got.refused === got.total)
        gaps.push(`${operation}: only 401/403 in the ${phase} phase (${got.total} requests)`);
    }
  }
  return gaps;
}

/** The table scripts/fuzz.ts prints: every operation the log names, with its answers. */
export function answersTable(answers: Map<string, Answers>): string {
  const rows = [...answers].sort(([a], [b]) => a.localeCompare(b));
  const cell = (n: number) => String(n).padStart(7);
  return [
    `#  ${'total'.padStart(7)}  ${'2xx'.padStart(7)}  ${'401/403'.padStart(7)}  operation`,
    ...rows.map(([name, a]) => `#  ${cell(a.total)}  ${cell(a.succeeded)}  ${cell(a.refused)}  ${name}`),
  ].join('\n');
}

/** The refusals test/fuzz/hooks.py accepted (one line each: operation and rule), counted. */
export function refusalsTable(lines: string): string {
  const counts = new Map<string, number>();
  for (const line of lines.split('\n').filter(Boolean)) counts.set(line, (counts.get(line) ?? 0) + 1);
  const rows = [...counts].sort(([a], [b]) => a.localeCompare(b));
  return [
    '',
    '# schema-valid requests refused by a contract rule no schema states (test/fuzz/hooks.py):',
    ...rows.map(([line, n]) => `#  ${String(n).padStart(7)}  ${line}`),
    '',
  ].join('\n');
}

/**
 * The run with a restricted key (`scripts/fuzz.ts --restricted`, docs/api.md#restricted-keys): each operation the key
 * may call answered 2xx at least once and was never refused for its permission; each other one answered only 401 or
 * 403, and was refused with `permission_denied` (what test/fuzz/hooks.py recorded in `denied`) at least once.
 */
export function restrictedGaps(
  allowed: ReadonlyMap<string, boolean>,
  answers: ReadonlyMap<string, Answers>,
  denied: ReadonlySet<string>,
): string[] {
  const gaps: string[] = [];
  for (const [operation, may] of allowed) {
    const got = answers.get(operation) ?? { total: 0, succeeded: 0, refused: 0 };
    if (may && got.succeeded === 0) gaps.push(`${operation}: its key may call it, but it never answered 2xx`);
    if (may && denied.has(operation)) gaps.push(`${operation}: its key may call it, but it answered permission_denied`);
    if (!may && got.refused < got.total)
      gaps.push(`${operation}: its key may not call it, but ${got.total - got.refused} answers were not 401/403`);
    if (!may && !denied.has(operation))
      gaps.push(`${operation}: its key may not call it, and no 403 permission_denied`);
  }
  return gaps;
}
