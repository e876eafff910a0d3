import { ApiError } from '../http/errors.ts';

/**
 * The one refusal of a live key where only the sandbox makes sense (simulations, the sandbox clock): 403
 * `permission_denied`, saying what to use instead.
 */
export function requireSandbox(
  owner: { mode: string },
  message = 'Sandbox simulations need a sandbox key (sk_test_…).',
): void {
  if (owner.mode !== 'sandbox') throw new ApiError('permission_denied', message);
}
