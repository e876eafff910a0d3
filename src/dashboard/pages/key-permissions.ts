import {
  allows,
  type KeyPermissions,
  LEVELS,
  needs,
  PERMISSION_GROUPS,
  type PermissionGroup,
} from '../../platform/auth/permissions.ts';
import { type Html, html } from '../html.ts';
import { detailFor, type FormState, type View } from '../view.ts';

/** What each group covers (docs/api.md#restricted-keys), as the key form's table names it. */
const COVERS: Record<PermissionGroup, string> = {
  accounts: 'Accounts: open, update, freeze, close',
  transfers: 'Transfers, holds, reversals',
  transactions: 'Transactions, balances, statements',
  payments: 'External accounts and payments',
  sandbox: 'Sandbox simulations, payment rules, the clock',
  events: 'Events and their deliveries',
  webhook_endpoints: 'Webhook endpoints and deliveries',
  api_keys: 'API keys',
  requests: 'The request log',
};

/** A key's permissions as a person reads them: full access, or the groups it holds. */
export function permissionsText(permissions: KeyPermissions | null): Html {
  if (permissions === null) return html`<span class="badge info">full access</span>`;
  const held = PERMISSION_GROUPS.filter((g) => permissions[g] !== 'none');
  if (held.length === 0) return html`<span class="muted">no access</span>`;
  return html`<ul class="permissions-held">${held.map((g) => html`<li><code>${g}: ${permissions[g]}</code></li>`)}</ul>`;
}

/** One group's radio group (none/read/write), offering only the levels the session's own key holds. */
function groupField(view: View, group: PermissionGroup, state: FormState | undefined): Html {
  const held = view.principal.permissions;
  const name = `permissions.${group}`;
  const chosen = state?.values[name] ?? 'none';
  const error = detailFor(state, name);
  const levels = LEVELS.filter((level) => level === 'none' || allows(held, needs(group, level)));
  const radios = levels.map(
    (level) =>
      html`<label class="check"><input type="radio" name="${name}" value="${level}"${
        level === chosen ? html` checked` : ''
      }> ${level}</label>`,
  );
  return html`<fieldset class="permission${error ? ' invalid' : ''}"${error ? html` aria-describedby="perm-${group}-error"` : ''}>
<legend><code>${group}</code> <span class="hint">${COVERS[group]}</span></legend>
<div class="levels">${radios}</div>${error ? html`<p class="field-error" id="perm-${group}-error">${error}</p>` : ''}</fieldset>`;
}

/**
 * The key form's access: a full key (only a full session may make one) or a restricted key with, for each group,
 * none, read or write (write includes read), never more than the session's own key holds.
 */
export function accessFields(view: View, state: FormState | undefined): Html {
  const full = view.principal.permissions === null;
  const restricted = !full || state?.values.access === 'restricted';
  const table = html`<div class="permissions">${PERMISSION_GROUPS.map((g) => groupField(view, g, state))}</div>`;
  if (!full)
    return html`<input type="hidden" name="access" value="restricted">
<p class="hint">This session’s key is restricted: a key made here is restricted too, within its permissions.</p>${table}`;
  const option = (value: string, label: string, on: boolean) =>
    html`<label class="check"><input type="radio" name="access" value="${value}"${on ? html` checked` : ''}> ${label}</label>`;
  return html`<fieldset><legend>Access</legend>
${option('full', 'Full access (sk_…): everything this organisation’s mode allows', !restricted)}
${option('restricted', 'Restricted (rk_…): only the permissions below', restricted)}</fieldset>
<p class="hint">A restricted key holds, for each group, none, read or write (write includes read). Choosing any
level above none below makes the key restricted.</p>${table}`;
}

/**
 * The `permissions` of a create, from the form's fields: undefined for a full key; a group left out is none. Any
 * group ticked above none makes the key restricted, whatever the Access choice says: a person who picked
 * `transactions: read` and missed the Access radio wants a key that holds that, never a full one.
 */
export function permissionsField(fields: URLSearchParams): Record<string, string> | undefined {
  const chosen = PERMISSION_GROUPS.map((g) => [g, fields.get(`permissions.${g}`) ?? 'none'] as const);
  const ticked = chosen.some(([, level]) => level !== 'none');
  if (fields.get('access') !== 'restricted' && !ticked) return undefined;
  return Object.fromEntries(chosen);
}
