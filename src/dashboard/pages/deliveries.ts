import type { WebhookDelivery } from '../../modules/webhooks/index.ts';
import { ops } from '../../ops.ts';
import { badge, time } from '../format.ts';
import { type Html, html } from '../html.ts';
import { empty, formFields, table } from '../layout.ts';
import type { View } from '../view.ts';

function attempts(view: View, delivery: WebhookDelivery): Html {
  if (delivery.attempts.length === 0) return html`<span class="muted">none yet</span>`;
  const rows = delivery.attempts.map(
    (a, i) =>
      html`<li>#${i + 1} ${time(a.attempted_at, view.now)} · ${
        a.response_status === null
          ? html`<span class="badge bad">no answer</span>`
          : html`<span class="badge ${a.response_status < 300 ? 'good' : 'bad'}">HTTP ${a.response_status}</span>`
      } · ${a.duration_ms} ms${a.error ? html` · <span class="error-text">${a.error}</span>` : ''}</li>`,
  );
  return html`<details><summary>${delivery.attempts.length} attempt${delivery.attempts.length === 1 ? '' : 's'}</summary><ol class="attempts">${rows}</ol></details>`;
}

/** A delivery log: each delivery's status, every attempt (status, duration, error), and a retry button. */
export function deliveriesTable(view: View, deliveries: WebhookDelivery[], of: 'event' | 'endpoint'): Html {
  const retry = view.can(ops.retryWebhookDelivery);
  const rows = deliveries.map(
    (d) => html`<tr><td><code>${d.id}</code></td>
<td>${of === 'event' ? html`<a href="/dashboard/webhooks/${d.endpoint_id}"><code>${d.endpoint_id}</code></a>` : html`<a href="/dashboard/events/${d.event_id}"><code>${d.event_id}</code></a>`}</td>
<td>${badge(d.status)}</td><td>${attempts(view, d)}</td><td>${time(d.next_attempt_at, view.now)}</td>
<td>${
      retry &&
      html`<form method="post" action="/dashboard/deliveries/${d.id}/retry">${formFields(view)}
<input type="hidden" name="endpoint_id" value="${d.endpoint_id}"><button type="submit" class="small">Retry now</button></form>`
    }</td></tr>`,
  );
  return table(
    'Deliveries',
    ['Delivery', of === 'event' ? 'Endpoint' : 'Event', 'Status', 'Attempts', 'Next attempt', ''],
    rows,
    empty(
      'No deliveries',
      of === 'event'
        ? 'No enabled endpoint was subscribed to this event.'
        : 'Events this endpoint subscribes to are delivered here.',
    ),
  );
}
