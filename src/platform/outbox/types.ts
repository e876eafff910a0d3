import { Type } from 'typebox';

/**
 * Every event type and the object its event carries, declared by the module that emits it (declaration merging; see
 * src/products/fintech/events.ts):
 *
 *   declare module './types.ts' {
 *     interface EventPayloads { 'fintech.transfer.created': Transfer }
 *   }
 *
 * so `events.emit(ctx, [{ type, object }])` is checked: a type nobody declared, or the wrong object for it, does not
 * compile.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each module's declaration
export interface EventPayloads {}

export type EventType = keyof EventPayloads & string;

/** One change to report: the event's type and the resource after the change, as its module declared them. */
export type Change = { [T in EventType]: { type: T; object: EventPayloads[T] } }[EventType];

// The registered list, in the order the reference shows it. The schemas below hold this very array, so they list
// every module's types once the composition root registered them (src/modules.ts, before any route is declared).
const registered: EventType[] = [];
const registeredOrAll: string[] = ['*'];

/** Takes every module's event types, once per process (the composition root calls it at start-up). */
export function useEventTypes(types: readonly string[]): void {
  if (registered.length > 0) {
    if (registered.join() !== types.join()) throw new Error('event types registered twice, differently');
    return;
  }
  if (new Set(types).size !== types.length) throw new Error('an event type is declared by two modules');
  registered.push(...(types as EventType[]));
  registeredOrAll.push(...types);
}

/** The registered event types, in reference order. */
export const eventTypes = (): readonly EventType[] => registered;

export const EventTypeSchema = Type.Unsafe<EventType>({
  type: 'string',
  enum: registered,
  description: 'What happened. The list grows: accept types you do not know.',
});

/** A webhook endpoint's `enabled_events` item: an event type, or `*` for every type. */
export const EventTypeOrAllSchema = Type.Unsafe<EventType | '*'>({ type: 'string', enum: registeredOrAll });
