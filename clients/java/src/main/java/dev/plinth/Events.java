package dev.plinth;

/**
 * Events: what happened, newest first, numbered by {@code sequence}. The operations are generated
 * ({@link EventsOperations}); this adds the live stream, which is no operation of the document.
 */
public final class Events extends EventsOperations {
  Events(Plinth plinth) { super(plinth); }

  /** The live event stream, as it happens, resuming by itself: see {@link EventStream}. Close it to stop. */
  public EventStream stream(EventStream.Params params) { return new EventStream(plinth.apiClient(), params); }
}
