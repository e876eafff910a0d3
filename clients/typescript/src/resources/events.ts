/** `plinth.events`: the generated operations (src/operations/events.ts) and the live event stream, by hand. */
import type { Event } from '../../generated/index.js';
import { EventsOperations } from '../operations/events.js';
import { eventStream, type StreamParams } from '../stream.js';

export class EventsResource extends EventsOperations {
  /**
   * The live events, oldest first, as they happen (GET /v1/events/stream): `for await (const e of
   * plinth.events.stream())`. Resumes by itself after any disconnection, with no gap and no repeat; `after` starts
   * after that sequence (0: every event still kept). Stop with `break` or `signal`.
   */
  stream(params: StreamParams = {}): AsyncGenerator<Event, void, undefined> {
    return eventStream(this.context.stream, params);
  }
}
