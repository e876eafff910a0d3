import { randomBytes } from 'node:crypto';
import type { Principal } from '../platform/auth/principal.ts';
import type { ApiError } from '../platform/http/errors.ts';
import type { Access } from './access.ts';

/** What every page of a session is rendered with; what its key may do (`can`, `need`). */
export interface View extends Access {
  now: Date;
  principal: Principal;
  /** The org's display name, or its handle. */
  orgName: string;
  csrf: string;
  /** The path of this page, for the navigation's current item. */
  path: string;
  requestId: string;
}

/** A refused form: which one, what was typed (never a secret), and the API's problem. */
export interface FormState {
  form: string;
  values: Record<string, string>;
  error: ApiError;
  requestId: string;
}

/** The state of `form`, when the refused one is that form. */
export const stateOf = (state: FormState | undefined, form: string): FormState | undefined =>
  state?.form === form ? state : undefined;

/**
 * A fresh Idempotency-Key for each form rendered: submitting the same rendered form twice (a double click, a
 * reload of the answer) is one request, replayed; a form shown again after a refusal gets a new key, since the
 * refusal was the outcome of the old one.
 */
export const newFormKey = (): string => `dash_${randomBytes(16).toString('base64url')}`;

/** The detail the API gave for `param`, from the problem's list of errors (or its only one). */
export function detailFor(state: FormState | undefined, param: string): string | undefined {
  if (state === undefined) return undefined;
  const items = state.error.errors ?? [{ param: state.error.param, detail: state.error.message }];
  // A field that holds an object (metadata, typed as lines) takes the errors of its members too.
  return (items.find((item) => item.param === param) ?? items.find((item) => item.param?.startsWith(`${param}.`)))
    ?.detail;
}
