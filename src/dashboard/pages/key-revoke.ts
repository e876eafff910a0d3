import type { FastifyInstance } from 'fastify';
import { KeyIdParams } from '../../modules/keys/index.ts';
import { ops } from '../../ops.ts';
import type { Ctx } from '../context.ts';
import { type Html, html } from '../html.ts';
import type { FormState, View } from '../view.ts';
import { confirmedAction, confirmPage } from './confirm.ts';

/** Asks before revoking; the key this session uses is named as such, since revoking it ends the session. */
async function revokePage(ctx: Ctx, view: View, id: string, state?: FormState): Promise<Html> {
  const k = await ctx.read(view.principal, ops.retrieveApiKey, { params: { id } });
  const own = k.id === view.principal.keyId;
  return confirmPage(
    view,
    {
      title: own ? 'Revoke the key this session uses?' : 'Revoke this key?',
      text: html`<p>${k.name ?? 'An unnamed key'} · <code>${k.hint}</code> · <code>${k.id}</code></p>
<p>${own ? 'You will be signed out, and ' : ''}requests with it will fail within a second. This cannot be undone.</p>`,
      action: `/dashboard/api-keys/${k.id}/revoke`,
      button: 'Revoke key',
      back: '/dashboard/api-keys',
    },
    state,
  );
}

/** Revoking a key: a confirmation page, then the API's `revokeApiKey` as the session. */
export function keyRevokePages(scope: FastifyInstance, ctx: Ctx): void {
  // The operation forgets the key once revoked: this process stops trusting it at once, not within the second.
  confirmedAction(scope, ctx, {
    path: '/api-keys/:id/revoke',
    params: KeyIdParams,
    operation: ops.revokeApiKey,
    name: 'revoke',
    question: (view, id, state) => revokePage(ctx, view, id, state),
    done: '/dashboard/api-keys?done=revoked',
  });
}
