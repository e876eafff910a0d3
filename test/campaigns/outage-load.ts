import assert from 'node:assert/strict';
import type { ServerProcess } from '../helpers/process.ts';

/**
 * Load for the outage campaigns: every request must be answered (a bound of REQUEST_BOUND_MS per request stands for
 * "hangs"), with 200 or 503 service_unavailable and nothing else; every create answered 200 must still be there
 * afterwards; the process must not crash. Loops are bounded by counts and deadlines; phases advance on what was
 * observed, never on timing.
 */
const REQUEST_BOUND_MS = 30_000;

export interface Load {
  answers: { status: number; code?: string; id?: string }[];
  /** Resolves once `predicate` holds for the answers so far (or throws after `ms`). */
  until(predicate: (answers: Load['answers']) => boolean, what: string, ms?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Four clients creating accounts back to back, at most `max` requests in all. */
export function startLoad(url: string, key: string, max = 20_000): Load {
  const answers: Load['answers'] = [];
  let stopping = false;
  const body = JSON.stringify({
    type: 'business',
    country: 'US',
    kyb: { ein: '46-8123457', legal_name: 'A'.repeat(190) },
  });
  const worker = async () => {
    while (!stopping && answers.length < max) {
      try {
        const response = await fetch(`${url}/v1/fintech/accounts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(REQUEST_BOUND_MS),
        });
        const json = (await response.json()) as { id?: string; code?: string };
        answers.push({ status: response.status, code: json.code, id: json.id });
      } catch (error) {
        // No answer at all (a hang past the bound, a reset): recorded, and refused by assertOnly200or503.
        answers.push({ status: 0, code: String((error as Error).cause ?? error) });
      }
    }
  };
  const workers = Promise.all([worker(), worker(), worker(), worker()]);
  return {
    answers,
    async until(predicate, what, ms = 60_000) {
      const deadline = Date.now() + ms;
      const seen = () =>
        JSON.stringify(Object.groupBy(answers.slice(-1000), (a) => `${a.status} ${a.code}`.slice(0, 120)));
      while (!predicate(answers)) {
        if (Date.now() >= deadline || answers.length >= max) assert.fail(`never saw ${what}; last answers: ${seen()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      stopping = true;
      await workers;
    },
  };
}

export const oks = (a: Load['answers']) => a.filter((x) => x.status === 200).length;
export const unavailable = (a: Load['answers']) => a.filter((x) => x.code === 'service_unavailable').length;

export async function signUp(server: ServerProcess): Promise<string> {
  const signup = await fetch(`${server.url}/v1/sandbox/signup`, { method: 'POST' });
  return ((await signup.json()) as { api_key: { key: string } }).api_key.key;
}

/** Only 200 and 503 service_unavailable, and the server alive. */
export function assertOnly200or503(server: ServerProcess, load: Load): void {
  for (const a of load.answers) assert.ok(a.status === 200 || a.code === 'service_unavailable', JSON.stringify(a));
  assert.equal(server.child.exitCode, null, 'the server is still running');
}

/** assertOnly200or503, and every acknowledged account still readable through the API. */
export async function assertNothingLost(server: ServerProcess, key: string, load: Load): Promise<void> {
  assertOnly200or503(server, load);
  for (const a of load.answers.filter((x) => x.status === 200)) {
    const r = await fetch(`${server.url}/v1/fintech/accounts/${a.id}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(r.status, 200, `acknowledged ${a.id} is gone`);
  }
}
