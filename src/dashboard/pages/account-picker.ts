import { ops } from '../../ops.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import type { Account } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { majorUnits } from '../format.ts';
import { type Html, html } from '../html.ts';
import { detailFor, type FormState } from '../view.ts';

/** How many open accounts a picker lists at most (pages of the API's list, newest first). */
export const PICKER_MAX = 1000;

/** The org's open accounts, newest first, through the API's list (`status=active`), up to PICKER_MAX. */
export async function openAccounts(ctx: Ctx, principal: Principal): Promise<{ accounts: Account[]; more: boolean }> {
  const accounts: Account[] = [];
  let after: string | undefined;
  for (;;) {
    const query = { limit: 100, status: 'active' as const, ...(after ? { starting_after: after } : {}) };
    const page = await ctx.read(principal, ops.listAccounts, { query });
    accounts.push(...page.data);
    after = page.data.at(-1)?.id;
    if (!page.has_more || after === undefined) return { accounts, more: false };
    if (accounts.length >= PICKER_MAX) return { accounts, more: true };
  }
}

/** An account as an option names it: nickname and id, and what it has available (its currency in `data-currency`). */
const option = (a: Account, chosen: string | undefined) =>
  html`<option value="${a.id}" data-currency="${a.available_balance.currency}"${a.id === chosen ? html` selected` : ''}>${a.nickname ? `${a.nickname} · ` : ''}${a.id} · ${majorUnits(a.available_balance.amount, a.available_balance.currency)} available</option>`;

/** A select of accounts, labelled, with the API's detail for its field beside it when it refused it. */
export function accountPicker(
  o: { name: string; label: string; state: FormState | undefined; value?: string | undefined; hint: string },
  accounts: Account[],
  attrs: Html = html``,
): Html {
  const error = detailFor(o.state, o.name);
  const chosen = o.state?.values[o.name] ?? o.value;
  const id = `f-${o.name}`;
  const described = `${id}-hint${error ? ` ${id}-error` : ''}`;
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${o.label}</label>
<select id="${id}" name="${o.name}" required aria-describedby="${described}"${error ? html` aria-invalid="true"` : ''}${attrs}>
<option value=""${chosen ? '' : html` selected`}>Choose an account</option>${accounts.map((a) => option(a, chosen))}</select>
<p class="hint" id="${id}-hint">${o.hint}</p>${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}</div>`;
}
