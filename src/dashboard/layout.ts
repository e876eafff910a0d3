import { ops } from '../ops.ts';
import type { OperationRef } from '../platform/operations/operation.ts';
import { Html, html, type Value } from './html.ts';
import { detailFor, type FormState, newFormKey, type View } from './view.ts';

/**
 * Each page of the navigation, and the operation it reads: a key that may not read it does not see the link; a
 * `sandbox` page is not shown to a live session.
 */
const NAV: [string, string, OperationRef | null, 'sandbox'?][] = [
  ['/dashboard', 'Home', null],
  ['/dashboard/accounts', 'Accounts', ops.listAccounts],
  ['/dashboard/transfers', 'Transfers', ops.listTransfers],
  ['/dashboard/payments', 'Payments', ops.listPayments],
  ['/dashboard/external-accounts', 'External accounts', ops.listExternalAccounts],
  ['/dashboard/events', 'Events', ops.listEvents],
  ['/dashboard/webhooks', 'Webhooks', ops.listWebhookEndpoints],
  ['/dashboard/api-keys', 'API keys', ops.listApiKeys],
  ['/dashboard/requests', 'Requests', ops.listRequests],
  ['/dashboard/audit', 'Audit', ops.retrieveAuditCheckpoint],
  ['/dashboard/sandbox', 'Sandbox', ops.retrieveSandboxClock, 'sandbox'],
];

function current(view: View, href: string): boolean {
  return href === '/dashboard' ? view.path === '/dashboard' : view.path.startsWith(href);
}

/** The document every page shares: head, header with org and mode, navigation, sign-out, main. */
export function document(title: string, main: Html, chrome: Html | null = null): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Plinth</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script src="/dashboard/assets/dashboard.js" defer></script>
</head><body>
<a class="skip" href="#main">Skip to content</a>
${chrome}
<main id="main" tabindex="-1">${main}</main>
</body></html>`;
}

export function page(view: View, title: string, main: Html): Html {
  const live = view.principal.mode === 'live';
  const chrome = html`<header class="top"><div class="bar">
  <div class="brand"><a href="/dashboard">Plinth</a></div>
  <div class="org"><span class="org-name">${view.orgName}</span>
    <span class="badge ${live ? 'live' : 'sandbox'}">${live ? 'Live' : 'Sandbox'}</span></div>
  <form method="post" action="/dashboard/sign-out" class="sign-out">${csrfField(view)}
    <button type="submit" class="link">Sign out</button></form>
  <nav aria-label="Main"><ul>${NAV.filter(
    ([, , reads, only]) => (reads === null || view.can(reads)) && (only === undefined || view.principal.mode === only),
  ).map(
    ([href, label]) =>
      html`<li><a href="${href}"${current(view, href) ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>
</div>${live ? '' : html`<p class="test-banner">Sandbox: test data only; no real money moves.</p>`}</header>`;
  return document(title, main, chrome);
}

export const csrfField = (view: View): Html => html`<input type="hidden" name="csrf" value="${view.csrf}">`;

/** The hidden fields of every form that changes something: the session's CSRF token and a fresh Idempotency-Key. */
export const formFields = (view: View): Html =>
  html`${csrfField(view)}<input type="hidden" name="idempotency_key" value="${newFormKey()}">`;

/** The refused form's problem, read out when it appears; its request id to quote to the operator. */
export function problemSummary(state: FormState | undefined): Html {
  if (state === undefined) return html``;
  const { error } = state;
  return html`<div class="problem" role="alert"><p><strong>${error.message}</strong></p>
<p class="hint"><code>${error.code}</code> · request <code>${state.requestId}</code></p></div>`;
}

interface FieldOptions {
  name: string;
  label: string;
  state: FormState | undefined;
  value?: string;
  type?: string;
  hint?: string;
  required?: boolean;
  attrs?: Html;
}

function described(name: string, hint: string | undefined, error: string | undefined) {
  const ids = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter((s) => s !== '').join(' ');
  return ids === '' ? html`` : html` aria-describedby="${ids}"`;
}

function fieldNotes(name: string, hint: string | undefined, error: string | undefined): Html {
  return html`${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>` : ''}${
    error ? html`<p class="field-error" id="${name}-error">${error}</p>` : ''
  }`;
}

/** A labelled input; the API's detail for this field, when it refused it, beside it. */
export function input(o: FieldOptions): Html {
  const error = detailFor(o.state, o.name);
  const value = o.state?.values[o.name] ?? o.value ?? '';
  const id = `f-${o.name.replace(/\W/g, '-')}`;
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${o.label}</label>
<input id="${id}" name="${o.name}" type="${o.type ?? 'text'}" value="${value}"${o.required ? html` required` : ''}${
    error ? html` aria-invalid="true"` : ''
  }${described(id, o.hint, error)}${o.attrs ?? ''}>${fieldNotes(id, o.hint, error)}</div>`;
}

export function textarea(o: FieldOptions): Html {
  const error = detailFor(o.state, o.name);
  const value = o.state?.values[o.name] ?? o.value ?? '';
  const id = `f-${o.name.replace(/\W/g, '-')}`;
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${o.label}</label>
<textarea id="${id}" name="${o.name}" rows="3"${error ? html` aria-invalid="true"` : ''}${described(id, o.hint, error)}${o.attrs ?? ''}>${value}</textarea>${fieldNotes(id, o.hint, error)}</div>`;
}

/** Metadata as a short list of `key = value`, or nothing when there is none. */
export function metadataList(metadata: Record<string, string> | undefined): Html {
  const entries = Object.entries(metadata ?? {});
  if (entries.length === 0) return html`<span class="muted">none</span>`;
  return html`<ul class="metadata">${entries.map(([k, v]) => html`<li><code>${k}</code> = ${v}</li>`)}</ul>`;
}

export function select(o: FieldOptions & { options: (string | [string, string])[] }): Html {
  const error = detailFor(o.state, o.name);
  const value = o.state?.values[o.name] ?? o.value ?? '';
  const id = `f-${o.name.replace(/\W/g, '-')}`;
  const options = o.options.map((option) => {
    const [v, label] = typeof option === 'string' ? [option, option] : option;
    return html`<option value="${v}"${v === value ? html` selected` : ''}>${label}</option>`;
  });
  return html`<div class="field${error ? ' invalid' : ''}"><label for="${id}">${o.label}</label>
<select id="${id}" name="${o.name}"${o.required ? html` required` : ''}${error ? html` aria-invalid="true"` : ''}${described(id, o.hint, error)}>${options}</select>${fieldNotes(id, o.hint, error)}</div>`;
}

/** Each cell of a row gets its column's name as `data-label`, which a phone shows above it (rows stack there). */
function labelled(row: Html, head: string[]): Html {
  let column = 0;
  return new Html(row.text.replace(/<td(?=[\s>])/g, () => html`<td data-label="${head[column++] ?? ''}"`.text));
}

/**
 * A table that scrolls sideways when it must (keyboard-reachable), or the empty state when no rows; on a phone each
 * row stacks its cells, each under its column's name (assets/css/4-badges-tables.css).
 */
export function table(label: string, head: string[], rows: Html[], empty: Html): Html {
  if (rows.length === 0) return empty;
  rows = rows.map((row) => labelled(row, head));
  return html`<div class="table-wrap" role="region" aria-label="${label}" tabindex="0"><table>
<thead><tr>${head.map((h) => html`<th scope="col">${h === '' ? html`<span class="visually-hidden">Actions</span>` : h}</th>`)}</tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

export function empty(title: string, text: Value): Html {
  return html`<div class="empty"><p class="empty-title">${title}</p><p>${text}</p></div>`;
}

/** A list's filters, carried into its page links: text, or an object written `name[key]=value`. */
export type Query = Record<string, string | Record<string, string> | undefined>;

export interface Cursors {
  starting_after?: string | undefined;
  ending_before?: string | undefined;
}

/**
 * Newer/older links over the API's cursors: `ending_before` the first id shown, `starting_after` the last. Which
 * exist follows from the cursor the page was asked with and the API's `has_more`, which answers for the direction
 * the page was read in.
 */
export function pager(path: string, params: Query, ids: string[], asked: Cursors, hasMore: boolean): Html {
  if (ids.length === 0) return html``;
  const newer = asked.ending_before !== undefined ? hasMore : asked.starting_after !== undefined;
  const older = asked.ending_before !== undefined ? true : hasMore;
  const link = (cursor: Record<string, string>) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...params, ...cursor })) {
      if (typeof v === 'string' && v !== '') query.set(k, v);
      // `metadata[key]=value`, as the API's lists read it
      else if (typeof v === 'object')
        for (const [inner, value] of Object.entries(v)) query.set(`${k}[${inner}]`, value);
    }
    return `${path}?${query}`;
  };
  if (!newer && !older) return html``;
  return html`<nav class="pager" aria-label="Pages">${
    newer ? html`<a href="${link({ ending_before: ids[0]! })}">← Newer</a>` : html`<span></span>`
  }${older ? html`<a href="${link({ starting_after: ids.at(-1)! })}">Older →</a>` : ''}</nav>`;
}

/** A short message after an action that succeeded (from a fixed list, never from the query string's text). */
export function flash(message: string | undefined): Html {
  return message ? html`<p class="flash" role="status">${message}</p>` : html``;
}
