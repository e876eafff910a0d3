import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { ops } from '../../ops.ts';
import { type KeyPermissions, within } from '../../platform/auth/permissions.ts';
import { ListQuery } from '../../platform/http/pagination.ts';
import type { Ctx } from '../context.ts';
import { badge, time } from '../format.ts';
import { optional, sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { empty, flash, formFields, input, page, pager, problemSummary, select, table } from '../layout.ts';
import { type FormState, stateOf, type View } from '../view.ts';
import { accessFields, permissionsField, permissionsText } from './key-permissions.ts';
import { keyRevokePages } from './key-revoke.ts';
import { secretPanel } from './webhooks.ts';

const KeysQuery = Type.Object(
  { ...ListQuery('key', 'key').properties, done: Type.Optional(Type.Literal('revoked')) },
  { additionalProperties: false },
);
type KeysQuery = Static<typeof KeysQuery>;
const _NoBody = Type.Object({}, { additionalProperties: false });

/** A live session may mint either mode; a sandbox one only sandbox keys (docs/api.md#keys-and-the-sandbox). */
const modeOptions = (view: View): [string, string][] => [
  ['sandbox', 'Sandbox (…_test_…)'],
  ...(view.principal.mode === 'live' ? [['live', 'Live (…_live_…)'] as [string, string]] : []),
];

/** API keys: the org's keys of this mode, a form that mints one (shown once), and revocation (key-revoke.ts). */
export function keysPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

  async function keysPage(view: View, query: KeysQuery, state?: FormState): Promise<Html> {
    const { done, ...listQuery } = query;
    const list = await ctx.read(view.principal, ops.listApiKeys, { query: listQuery });
    const keys = list.data;
    const create = stateOf(state, 'create');
    const revoke = view.can(ops.revokeApiKey);
    const rows = keys.map((k) => {
      const own = k.id === view.principal.keyId;
      return html`<tr><td>${k.name ?? html`<span class="muted">unnamed</span>`}${own ? html` <span class="badge info">this session</span>` : ''}</td>
<td><code>${k.hint}</code><br><span class="hint"><code>${k.id}</code></span></td>
<td>${permissionsText(k.permissions)}</td>
<td>${k.revoked_at === null ? badge('active') : badge('revoked')}</td><td>${time(k.created_at, view.now)}</td><td>${time(k.last_used_at, view.now)}</td>
<td>${
        // A restricted session revokes only keys within its own permissions (docs/api.md#restricted-keys).
        k.revoked_at === null && revoke && within(k.permissions as KeyPermissions | null, view.principal.permissions)
          ? html`<a class="button danger small" href="/dashboard/api-keys/${k.id}/revoke" aria-label="Revoke ${k.name ?? k.hint}">Revoke</a>`
          : ''
      }</td></tr>`;
    });
    return page(
      view,
      'API keys',
      html`<h1>API keys</h1>${flash(done === 'revoked' ? 'Key revoked.' : undefined)}
${state && state.form !== 'create' ? problemSummary(state) : ''}
${table('API keys', ['Name', 'Key', 'Access', 'Status', 'Created', 'Last used', ''], rows, empty('No keys', 'Create one below.'))}
${pager(
  '/dashboard/api-keys',
  {},
  keys.map((k) => k.id),
  listQuery,
  list.has_more,
)}
${
  view.can(ops.createApiKey) &&
  html`<section class="card"><h2 id="create-h">Create a key</h2>${problemSummary(create)}
<form method="post" action="/dashboard/api-keys">${formFields(view)}
${input({ name: 'name', label: 'Name', state: create, hint: 'A label for people, such as “CI deploys”.' })}
${select({
  name: 'mode',
  label: 'Mode',
  state: create,
  value: view.principal.mode,
  options: modeOptions(view),
  hint:
    view.principal.mode === 'live'
      ? undefined
      : 'A sandbox session mints sandbox keys; sign in with a live key to mint live ones.',
})}
${accessFields(view, create)}
<button type="submit" class="primary">Create key</button></form></section>`
}`,
    );
  }

  r.get('/api-keys', { schema: { hide: true, querystring: KeysQuery } }, async (request, reply) =>
    sendHtml(reply, await keysPage(await ctx.view(request), request.query)),
  );

  r.post('/api-keys', { schema: { hide: true } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'create',
      build: async (fields, principal) => {
        const name = optional(fields, 'name');
        const permissions = permissionsField(fields);
        const body = {
          mode: fields.get('mode') ?? principal.mode,
          ...(name === undefined ? {} : { name }),
          ...(permissions === undefined ? {} : { permissions }),
        };
        return { operation: ops.createApiKey, body };
      },
      done: ({ value }, view) =>
        page(
          view,
          'Key created',
          html`<h1>Key created</h1>${secretPanel(`${value.mode === 'live' ? 'Live' : 'Sandbox'} key ${value.name ?? ''}`, value.key, 'This form was sent twice: the key was created the first time and shown then. Revoke it and create another if it was not copied.')}
<section class="card" id="key-access"><h2>What this key may do</h2>${permissionsText(value.permissions)}
<p class="hint">${value.permissions === null ? 'A full key: everything this organisation’s mode allows.' : 'A restricted key: only these groups; every other group is none.'}</p></section>
<p><a class="button" href="/dashboard/api-keys">Back to API keys</a></p>`,
        ),
      again: (view, state) => keysPage(view, {}, state),
    }),
  );
  keyRevokePages(scope, ctx);
}
