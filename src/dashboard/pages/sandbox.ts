import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ops } from '../../ops.ts';
import { ApiError } from '../../platform/http/errors.ts';
import { nextBusinessMorning } from '../../products/fintech/index.ts';
import type { Ctx } from '../context.ts';
import { amountField, optional, sendHtml } from '../forms.ts';
import { type Html, html } from '../html.ts';
import { flash, formFields, input, page, problemSummary, select } from '../layout.ts';
import { type FormState, stateOf, type View } from '../view.ts';

const HOUR = 3_600_000;

/** How far each of the clock's buttons moves it, from the clock's now (ms since the epoch). */
const STEPS = {
  hour: { label: 'Advance 1 hour', to: (now: number) => now + HOUR },
  day: { label: 'Advance 1 day', to: (now: number) => now + 24 * HOUR },
  business: { label: 'Next business day, 09:00 New York', to: nextBusinessMorning },
} as const;
type Step = keyof typeof STEPS;

const DONE = { advanced: 'Clock advanced: everything due up to the new time has run.' } as const;
const PageQuery = Type.Object({ done: Type.Optional(Type.Literal('advanced')) }, { additionalProperties: false });

/**
 * `172800` seconds → `2 days`; `5400` → `1 hour 30 minutes`; 0 → `none: real time`. Past a minute, to the nearest
 * minute: an advance of an hour reads `1 hour`, not the `59 minutes 59 seconds` real time has eaten into since.
 */
function offsetText(offset: number): string {
  if (offset === 0) return 'none: real time';
  let seconds = offset < 60 ? offset : Math.round(offset / 60) * 60;
  const parts: string[] = [];
  for (const [size, unit] of [
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ] as const) {
    const n = Math.floor(seconds / size);
    seconds -= n * size;
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  return `${parts.slice(0, 2).join(' ')} ahead of real time`;
}

/** The sandbox clock's time as a person reads it, in UTC and in New York (where the rails' hours are). */
function clockTime(iso: string): Html {
  const at = new Date(iso);
  const ny = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(at);
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC</time> <span class="hint">${ny} New York</span>`;
}

/**
 * The sandbox (docs/dashboard.md#payments): the org's clock (now, its offset from real time, and buttons that move it
 * on, running what falls due) and the simulation of a payment received at one of its account numbers. Sandbox only.
 */
export function sandboxPages(scope: FastifyInstance, ctx: Ctx): void {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();

  function sandboxOnly(view: View): void {
    if (view.principal.mode !== 'sandbox')
      throw new ApiError(
        'permission_denied',
        'The sandbox page needs a sandbox key (sk_test_…); live mode runs on real time.',
      );
  }

  async function sandboxPage(view: View, done: keyof typeof DONE | undefined, state?: FormState): Promise<Html> {
    sandboxOnly(view);
    const canClock = view.can(ops.retrieveSandboxClock);
    if (!canClock && !view.can(ops.simulateInboundPayment)) view.need(ops.retrieveSandboxClock);
    const clock = canClock ? await ctx.read(view.principal, ops.retrieveSandboxClock, {}) : null;
    const inbound = stateOf(state, 'inbound');
    const advance = stateOf(state, 'advance');
    return page(
      view,
      'Sandbox',
      html`<h1>Sandbox</h1>${flash(done === undefined ? undefined : DONE[done])}
${
  clock &&
  html`<section class="card" id="clock"><h2>Clock</h2>
<p class="hint">This organisation’s sandbox runs on a clock of its own, which only moves forward. Moving it runs, in time order, what falls due: ACH submissions at the 16:00 cut-off, settlements, payment rules, expiring holds.</p>
<dl class="facts"><dt>Now</dt><dd id="clock-now">${clockTime(clock.now)}</dd><dt>Offset</dt><dd id="clock-offset">${offsetText(clock.offset_seconds)}</dd></dl>
${
  view.can(ops.advanceSandboxClock) &&
  html`${problemSummary(advance)}<form method="post" action="/dashboard/sandbox/clock" class="clock-buttons">${formFields(view)}
${(Object.keys(STEPS) as Step[]).map((step) => html`<button type="submit" name="by" value="${step}">${STEPS[step].label}</button>`)}</form>`
}</section>`
}
${
  view.can(ops.simulateInboundPayment) &&
  html`<section class="card" id="inbound"><h2>Inbound payment</h2>
<p class="hint">Money sent to one of your account numbers from outside (a credit), or pulled from it by ACH debit. It settles at once, or is returned: R02 (number disabled, account closed), R16 (account frozen), R29 (debits blocked), R01 (not enough available).</p>
${problemSummary(inbound)}<form method="post" action="/dashboard/sandbox/inbound-payments">${formFields(view)}
${input({ name: 'account_number', label: 'Account number', state: inbound, required: true, hint: 'The full 12 digits, as shown when the number was created.', attrs: html` inputmode="numeric" autocomplete="off" spellcheck="false"` })}
${select({
  name: 'rail',
  label: 'Rail',
  state: inbound,
  value: 'ach',
  options: [
    ['ach', 'ACH'],
    ['wire', 'Wire'],
    ['rtp', 'RTP'],
  ],
})}
${select({
  name: 'direction',
  label: 'Direction',
  state: inbound,
  value: 'credit',
  options: [
    ['credit', 'Credit: money in'],
    ['debit', 'Debit (ACH): money pulled out'],
  ],
})}
${input({ name: 'amount', label: 'Amount (USD)', state: inbound, required: true, hint: 'In dollars, e.g. 100.00', attrs: html` inputmode="decimal"` })}
${input({ name: 'originator_name', label: 'Originator', state: inbound, required: true, hint: 'Who sends it, such as “Globex Corporation”.' })}
${input({ name: 'description', label: 'Description (optional)', state: inbound })}
<button type="submit" class="primary">Simulate inbound payment</button></form></section>`
}`,
    );
  }

  r.get('/sandbox', { schema: { hide: true, querystring: PageQuery } }, async (request, reply) =>
    sendHtml(reply, await sandboxPage(await ctx.view(request), request.query.done)),
  );

  r.post('/sandbox/clock', { schema: { hide: true } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'advance',
      build: async (fields, principal) => {
        const by = fields.get('by') ?? '';
        if (!Object.hasOwn(STEPS, by))
          throw new ApiError('parameter_invalid', 'by must be hour, day or business.', { param: 'by' });
        // From the clock's now as read here: the advance refuses a `to` before the clock, never one after it.
        const clock = await ctx.read(principal, ops.retrieveSandboxClock, {});
        const to = new Date(STEPS[by as Step].to(Date.parse(clock.now))).toISOString();
        return { operation: ops.advanceSandboxClock, body: { to } };
      },
      done: () => '/dashboard/sandbox?done=advanced',
      again: (view, state) => sandboxPage(view, undefined, state),
    }),
  );

  r.post('/sandbox/inbound-payments', { schema: { hide: true } }, (request, reply) =>
    ctx.submit(request, reply, {
      name: 'inbound',
      build: async (fields) => {
        const body = {
          account_number: (fields.get('account_number') ?? '').replace(/[\s-]/g, ''),
          rail: fields.get('rail') ?? '',
          direction: fields.get('direction') ?? '',
          amount: amountField(fields, 'amount', 'USD'),
          originator_name: fields.get('originator_name') ?? '',
          ...(optional(fields, 'description') === undefined ? {} : { description: fields.get('description') }),
        };
        return { operation: ops.simulateInboundPayment, body };
      },
      done: ({ value }) => `/dashboard/payments/${value.id}?done=received`,
      again: (view, state) => sandboxPage(view, undefined, state),
    }),
  );
}
