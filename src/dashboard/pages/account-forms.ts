import { ops } from '../../ops.ts';
import type { Account } from '../../products/fintech/index.ts';
import { CLOSE_REASONS, FREEZE_REASONS } from '../../products/fintech/index.ts';
import { type Html, html } from '../html.ts';
import { formFields, input, problemSummary, select } from '../layout.ts';
import { type FormState, stateOf, type View } from '../view.ts';

/** A reason code as words: `compliance_review` → compliance review. */
export const label = (reason: string) => reason.replace(/_/g, ' ');

/**
 * A reason's choices, none chosen: the person picks one (an empty first option, and `required`, so a browser asks
 * before sending and the API's validation answers a form sent without one).
 */
const reasons = (codes: readonly string[]): [string, string][] => [
  ['', 'Choose a reason'],
  ...codes.map((r): [string, string] => [r, label(r)]),
];

/** Freeze or unfreeze, and close (behind a disclosure: closing is final); nothing for a closed account. */
export function lifecycleForms(view: View, a: Account, state: FormState | undefined): Html {
  const canFreeze = view.can(a.status === 'active' ? ops.freezeAccount : ops.unfreezeAccount);
  if (a.status === 'closed' || (!canFreeze && !view.can(ops.closeAccount))) return html``;
  const base = `/dashboard/accounts/${a.id}`;
  const freeze = stateOf(state, 'freeze');
  const close = stateOf(state, 'close');
  return html`<section class="card"><h2 id="status-h">Status</h2>
${
  !canFreeze
    ? ''
    : a.status === 'active'
      ? html`<form method="post" action="${base}/freeze" class="inline-form">${formFields(view)}${problemSummary(freeze)}
${select({ name: 'reason', label: 'Reason', state: freeze, required: true, options: reasons(FREEZE_REASONS) })}
${input({ name: 'note', label: 'Note (optional)', state: freeze })}<button type="submit" class="danger">Freeze</button></form>`
      : html`<form method="post" action="${base}/unfreeze">${formFields(view)}${problemSummary(stateOf(state, 'unfreeze'))}<button type="submit">Unfreeze</button></form>`
}
${
  view.can(ops.closeAccount) &&
  html`<details${close ? html` open` : ''}><summary>Close this account</summary>
<form method="post" action="${base}/close" class="inline-form">${formFields(view)}${problemSummary(close)}
${select({ name: 'reason', label: 'Reason', state: close, required: true, options: reasons(CLOSE_REASONS) })}
${input({ name: 'note', label: 'Note (optional)', state: close })}
<button type="submit" class="danger" data-confirm="Close this account? Closing is final.">Close account</button>
<p class="hint">Closing is final, and needs both balances at 0.</p></form></details>`
}</section>`;
}

/** Sandbox mode only: move test money in or out through the organisation's funding account. */
export function sandboxForms(view: View, a: Account, state: FormState | undefined): Html {
  if (view.principal.mode !== 'sandbox' || a.status === 'closed') return html``;
  if (!view.can(ops.simulateDeposit) || !view.can(ops.simulateWithdrawal)) return html``;
  const form = (kind: 'deposit' | 'withdraw', title: string) => {
    const s = stateOf(state, kind);
    return html`<form method="post" action="/dashboard/accounts/${a.id}/${kind}" class="inline-form">${formFields(view)}${problemSummary(s)}
<h3>${title}</h3>${input({ name: 'amount', label: `Amount (${a.available_balance.currency})`, state: s, required: true, attrs: html` inputmode="decimal"` })}
${input({ name: 'description', label: 'Description (optional)', state: s })}<button type="submit">${title}</button></form>`;
  };
  return html`<section class="card"><h2 id="sandbox-h">Sandbox money</h2>
<p class="hint">Moves test money between this account and the organisation’s sandbox funding account.</p>
<div class="split">${form('deposit', 'Simulate a deposit')}${form('withdraw', 'Simulate a withdrawal')}</div></section>`;
}

/** The account's nickname, a label for people (docs/api.md#fintech-accounts): set, changed, or cleared (empty). */
export function nicknameForm(view: View, a: Account, state: FormState | undefined): Html {
  const s = stateOf(state, 'nickname');
  return html`<section class="card"><h2 id="nickname-h">Nickname</h2>
<form method="post" action="/dashboard/accounts/${a.id}/nickname" class="inline-form">${formFields(view)}${problemSummary(s)}
${input({ name: 'nickname', label: 'Nickname', state: s, value: a.nickname ?? '', hint: 'Up to 100 characters, shown beside the id wherever the account is named. Empty clears it.', attrs: html` autocomplete="off"` })}
<button type="submit">Save nickname</button></form></section>`;
}
