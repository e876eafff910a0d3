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
