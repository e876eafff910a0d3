/** What every step of the scenario uses: its output line, the typed-error check, a bounded wait. */
import assert from 'node:assert/strict';
import { PlinthError } from '@plinth/client';

export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

export async function step(name: string, run: () => Promise<void>): Promise<void> {
  await run();
  console.log(`ok ${name}`);
}

/** The call must fail with the client's one typed error, with this status and code; returns it for more checks. */
export async function refused(call: () => Promise<unknown>, status: number, code: string): Promise<PlinthError> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof PlinthError, `expected a PlinthError, got ${String(error)}`);
    assert.equal(error.status, status, error.message);
    assert.equal(error.code, code, error.message);
    assert.match(error.requestId ?? '', /^req_/);
    return error;
  }
  assert.fail(`expected ${status} ${code}, the call succeeded`);
}

/** Every item of an async iteration. */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

/** Polls `probe` every 100 ms until it returns a value, for at most `seconds`. */
export async function waitFor<T>(what: string, seconds: number, probe: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; ) {
    const found = await probe();
    if (found !== undefined) return found;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  assert.fail(`${what}: not within ${seconds} s`);
}
