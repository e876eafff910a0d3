import type { FastifyInstance } from 'fastify';
import { type Verified, verifyChain } from '../../modules/audit/index.ts';
import { ops } from '../../ops.ts';
import type { Ctx } from '../context.ts';
import { time } from '../format.ts';
import { sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { csrfField, page } from '../layout.ts';
import type { View } from '../view.ts';

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** What "Verify the chain" found: all of it sound, or the first problem (lowest sequence), as the CLI says it. */
function verdict(result: Verified): Html {
  const f = result.failure;
  if (f === null)
    return html`<div class="flash verified" role="status" id="verify-result"><p><strong>The chain verifies.</strong></p>
<ul><li>${plural(result.size, 'event', 'events')} chained, head <code>${result.hash}</code></li>
<li>${plural(result.bodies, 'body', 'bodies')} checked${
      result.expired > 0
        ? html`; ${plural(result.expired, 'older body has', 'older bodies have')} expired (their hashes stay chained)`
        : ''
    }</li>
${Object.entries(result.rows).map(([table, n]) => html`<li>${plural(n, 'row', 'rows')} of <code>${table}</code> agree with their events</li>`)}</ul></div>`;
  const more = result.problems - 1;
  return html`<div class="problem" role="alert" id="verify-result"><p><strong>The chain does not verify${
    f.sequence === null ? '' : html` at sequence ${f.sequence}`
  }.</strong></p>
<dl class="facts"><dt>Sequence</dt><dd>${f.sequence ?? html`<span class="muted">none: a row that no event reported</span>`}</dd>
<dt>Table</dt><dd><code>${f.table}</code></dd><dt>Why</dt><dd>${f.why}</dd></dl>
${more > 0 ? html`<p>And ${plural(more, 'more problem', 'more problems')} after it.</p>` : ''}</div>`;
}

/**
 * The audit page (docs/api.md#verifying-the-history), for the session's org and mode: the latest checkpoint of its
 * events' hash chain (signed now, as `GET /v1/audit/checkpoint` answers) and the key that signs it, a button that has
 * the server verify the chain (`verifyChain`, as `cli audit verify` does: it writes nothing), and how to check it
 * without trusting this server.
 */
async function auditPage(ctx: Ctx, view: View, result?: Verified): Promise<Html> {
  view.need(ops.retrieveAuditCheckpoint);
  const checkpoint = await ctx.read(view.principal, ops.retrieveAuditCheckpoint, {});
  const key = await ctx.read(view.principal, ops.retrieveAuditPublicKey, {});
  const { orgId, mode } = view.principal;
  const command = `npm run --silent cli -- audit verify --org ${orgId} --mode ${mode} --checkpoint checkpoint.txt`;
  const copy = (target: string, label: string) =>
    html`<button type="button" class="small" data-copy="${target}" hidden>${label}</button>`;
  return page(
    view,
    'Audit',
    html`<h1>Audit</h1>
<p class="lede">Every event’s body names the hash of the event before it, so no event, and no ledger transaction an event reported, can be changed afterwards without breaking the chain. A checkpoint is the chain’s head signed by this server’s key: keep one, and anyone can later check that the history still extends it.</p>
<section class="card" id="checkpoint" aria-labelledby="checkpoint-title"><h2 id="checkpoint-title">Latest checkpoint</h2>
<dl class="facts"><dt>Origin</dt><dd><code>${checkpoint.origin}</code></dd>
<dt>Size</dt><dd id="checkpoint-size">${plural(checkpoint.size, 'event', 'events')}</dd>
<dt>Head hash</dt><dd><code id="checkpoint-hash">${checkpoint.hash}</code></dd></dl>
<h3 id="note-title">Signed note</h3>
<p class="hint">The checkpoint as a signed note (C2SP <code>tlog-checkpoint</code>). Save it, outside Plinth, to check a later history against.</p>
<pre class="note" id="checkpoint-note">${checkpoint.note}</pre>
<div class="actions">${copy('checkpoint-note', 'Copy the note')}</div>
<h3>Public key</h3>
<p class="hint">The key that signs every org’s checkpoints on this server. Pin it once, outside Plinth.</p>
<dl class="facts"><dt>Verifier key</dt><dd><code id="verifier-key">${key.verifier_key}</code> ${copy('verifier-key', 'Copy')}</dd>
<dt>Key id</dt><dd><code>${key.key_id}</code></dd><dt>Algorithm</dt><dd>Ed25519</dd>
<dt>Created</dt><dd>${time(key.created_at, ctx.deps.clock())}</dd>${
      key.retired_keys.length > 0
        ? html`<dt>Retired keys</dt><dd>${key.retired_keys.map((k) => html`<code>${k.verifier_key}</code> `)}<span class="hint">checkpoints they signed still verify</span></dd>`
        : ''
    }</dl></section>
<section class="card" id="verify" aria-labelledby="verify-title"><h2 id="verify-title">Verify the chain</h2>
<p class="hint">The server recomputes the ${mode} chain from its store: every event numbered 1, 2, 3… with no gap, every kept body hashing to its link and naming the hash before it, and every ledger transaction agreeing with the event that reported it. It changes nothing.</p>
${result === undefined ? '' : verdict(result)}
<form method="post" action="/dashboard/audit/verify#verify">${csrfField(view)}
<button type="submit" class="primary">Verify the chain</button></form></section>
<section class="card" id="yourself" aria-labelledby="yourself-title"><h2 id="yourself-title">Verify it yourself</h2>
<p>Keep the signed note above in a file (here <code>checkpoint.txt</code>). Later, check that the history still extends it:</p>
<h3>On the server, as its operator</h3>
<p class="hint">In the server’s directory, with its <code>DATABASE_URL</code>. It prints <code>ok: …</code> and exits 0, or prints <code>FAILED: …</code> with the first bad sequence, its table and why, and exits 1. <code>--checkpoint</code> takes the note, or the saved answer of <code>GET /v1/audit/checkpoint</code>.</p>
<pre class="note" id="verify-command">${command}</pre>
<div class="actions">${copy('verify-command', 'Copy the command')}</div>
<h3>With the API alone</h3>
<p>Anyone with a key that may read events (an auditor’s restricted key) can recompute the chain from <code>GET /v1/audit/chain</code> and <code>GET /v1/events</code>, and check a checkpoint’s signature with the public key above: the guide’s section “Verifying the history” (<code>docs/api.md#verifying-the-history</code>) has a short Python verifier that does it. The operations are in the <a href="/docs#tag/Audit">API reference</a>.</p></section>`,
  );
}

/** The audit page and its "Verify the chain" (a POST: a form's button, run on demand, never by a prefetch). */
export function auditPages(scope: FastifyInstance, ctx: Ctx): void {
  scope.get('/audit', { schema: { hide: true } }, async (request, reply) =>
    sendHtml(reply, await auditPage(ctx, await ctx.view(request))),
  );

  scope.post('/audit/verify', { schema: { hide: true } }, async (request, reply) => {
    const view = await ctx.view(request);
    view.need(ops.retrieveAuditCheckpoint);
    await ctx.deps.caughtUp();
    // A restricted key that may read events but not transactions is not shown what a ledger row holds now.
    const result = await verifyChain(ctx.deps.database.db, view.principal, {
      checks: ctx.deps.eventChecks,
      permissions: view.principal.permissions,
    });
    // The request log keeps what it found (docs/api.md#the-request-log: every dashboard action).
    request.dashboardAction = { response: result };
    return sendHtml(reply, await auditPage(ctx, view, result));
  });
}
