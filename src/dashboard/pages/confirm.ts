import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { AnyWriteDeclaration } from '../../platform/operations/operation.ts';
import type { Ctx } from '../context.ts';
import { sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { formFields, page, problemSummary } from '../layout.ts';
import type { FormState, View } from '../view.ts';

export interface Confirmation {
  title: string;
  /** What the action does and what cannot be undone. */
  text: Html;
  /** The form's target: the POST that performs the action. */
  action: string;
  button: string;
  /** Where Cancel leads: the page the action was offered on. */
  back: string;
}

/**
 * A page that asks before an action that cannot be undone. It is a page, not a script's dialog, so that the
 * question is asked without JavaScript too (docs/dashboard.md#confirmations); a refusal comes back to it.
 */
export function confirmPage(view: View, c: Confirmation, state?: FormState): Html {
  return page(
    view,
    c.title,
    html`<h1>${c.title}</h1>${problemSummary(state)}${c.text}
<form method="post" action="${c.action}" class="actions">${formFields(view)}
<button type="submit" class="danger">${c.button}</button><a class="button" href="${c.back}">Cancel</a></form>`,
  );
}

/** An action on one object that asks first: GET `path` is the question, POST `path` runs `operation` as the session. */
export interface ConfirmedAction {
  /** The route, with `:id` (`/api-keys/:id/revoke`). */
  path: string;
  params: TSchema;
  /** The API operation the form performs on `{ id }`, without a body (`ops.revokeApiKey`). */
  operation: AnyWriteDeclaration;
  /** The form's name (its Idempotency-Key scope). */
  name: string;
  /** The question, with what refused the action when it comes back. */
  question(view: View, id: string, state?: FormState): Promise<Html>;
  /** Where the dashboard goes once the action is done. */
  done: string;
}

export function confirmedAction(scope: FastifyInstance, ctx: Ctx, a: ConfirmedAction): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const idOf = (params: unknown) => (params as { id: string }).id;
  r.get(a.path, { schema: { hide: true, params: a.params } }, async (request, reply) => {
    const view = await ctx.view(request);
    view.need(a.operation);
    return sendHtml(reply, await a.question(view, idOf(request.params)));
  });
  r.post(a.path, { schema: { hide: true, params: a.params } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: a.name,
      build: async () => ({ operation: a.operation, params: { id: idOf(request.params) }, body: {} }),
      done: () => a.done,
      again: (view, state) => a.question(view, idOf(request.params), state),
    }),
  );
}
