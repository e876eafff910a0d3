package dev.plinth;

import dev.plinth.client.api.EventsApi;
import dev.plinth.client.model.Event;
import dev.plinth.client.model.EventList;
import dev.plinth.client.model.WebhookDelivery;
import dev.plinth.client.model.WebhookDeliveryList;

/** Events: what happened, newest first, numbered by {@code sequence}. */
public final class Events {
  private final Plinth plinth;
  private final EventsApi api;

  Events(Plinth plinth) {
    this.plinth = plinth;
    this.api = new EventsApi(plinth.apiClient());
  }

  /** {@code listEvents}: every event, newest first, a page at a time. */
  public Iterable<Event> list() { return list((EventFilter) null, null); }

  public Iterable<Event> list(ListParams page) { return list((EventFilter) null, page); }

  /** Only the events of {@code type} (e.g. {@code fintech.account.created}; null: all). */
  public Iterable<Event> list(String type, ListParams page) { return list(new EventFilter().type(type), page); }

  public Iterable<Event> list(EventFilter filter) { return list(filter, null); }

  /** Only the events {@code filter} admits (type, created), on every page. */
  public Iterable<Event> list(EventFilter filter, ListParams page) {
    return ListParams.paginate(page, cursor -> listPage(filter, cursor), EventList::getData, EventList::getHasMore,
        Event::getId);
  }

  /** {@code listEvents}: one page. */
  public EventList listPage() { return listPage((EventFilter) null, null); }

  public EventList listPage(ListParams page) { return listPage((EventFilter) null, page); }

  public EventList listPage(String type, ListParams page) { return listPage(new EventFilter().type(type), page); }

  public EventList listPage(EventFilter filter, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    EventFilter f = EventFilter.orDefault(filter);
    return plinth.call(() -> api.listEventsWithHttpInfo(p.getLimit(), p.getStartingAfter(), p.getEndingBefore(),
        f.getType(), Created.forEvents(f.getCreated())));
  }

  /** The live event stream, as it happens, resuming by itself: see {@link EventStream}. Close it to stop. */
  public EventStream stream(EventStream.Params params) { return new EventStream(plinth.apiClient(), params); }

  /** {@code retrieveEvent}. */
  public Event retrieve(String id) {
    return plinth.call(() -> api.retrieveEventWithHttpInfo(id));
  }

  /** {@code listEventDeliveries}: every delivery of one event (to every endpoint), a page at a time. */
  public Iterable<WebhookDelivery> listDeliveries(String id) { return listDeliveries(id, null); }

  public Iterable<WebhookDelivery> listDeliveries(String id, ListParams page) {
    return ListParams.paginate(page, cursor -> listDeliveriesPage(id, cursor), WebhookDeliveryList::getData,
        WebhookDeliveryList::getHasMore, WebhookDelivery::getId);
  }

  /** {@code listEventDeliveries}: one page. */
  public WebhookDeliveryList listDeliveriesPage(String id) { return listDeliveriesPage(id, null); }

  public WebhookDeliveryList listDeliveriesPage(String id, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    return plinth.call(() -> api.listEventDeliveriesWithHttpInfo(id, p.getLimit(), p.getStartingAfter(),
        p.getEndingBefore()));
  }
}
