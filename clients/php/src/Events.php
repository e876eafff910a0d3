<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\Event;
use Plinth\Generated\Model\EventList;
use Plinth\Generated\Model\WebhookDelivery;
use Plinth\Generated\Model\WebhookDeliveryList;

/** What happened in the organisation, newest first, and where each event was delivered. */
final class Events extends Resource
{
    /**
     * One page; $type keeps one event type (e.g. fintech.account.created), $created bounds the time (as for accounts).
     * @param array<string, string|\DateTimeInterface>|null $created
     */
    public function listPage(?string $type = null, ?array $created = null, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): EventList
    {
        $created = self::created($created);
        return $this->client->call(fn () => $this->api->listEventsWithHttpInfo($limit, $startingAfter, $endingBefore, $type, $created));
    }

    /**
     * Every event, newest first, fetching pages of $limit lazily.
     * @param array<string, string|\DateTimeInterface>|null $created
     * @return \Generator<Event>
     */
    public function list(?string $type = null, ?array $created = null, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($type, $created, $limit, $after));
    }

    /**
     * The live event stream: every event (of $type), after sequence $after (0: every one still kept; null: from the
     * next one), as it happens, resuming by itself (EventStream). `break` out of the foreach to stop. $onGap is told
     * (from, to) when the starting point is older than the server's retention.
     * @param (callable(int, int): void)|null $onGap
     * @return \Generator<int, Event>
     */
    public function stream(?string $type = null, ?int $after = null, ?callable $onGap = null): \Generator
    {
        return EventStream::open($this->client->config->getHost(), $this->client->config->getAccessToken(), $type, $after, $onGap);
    }

    public function retrieve(string $id): Event
    {
        return $this->client->call(fn () => $this->api->retrieveEventWithHttpInfo($id));
    }

    /** One page of the deliveries of an event (one per endpoint it was sent to). */
    public function listDeliveriesPage(string $id, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): WebhookDeliveryList
    {
        return $this->client->call(fn () => $this->api->listEventDeliveriesWithHttpInfo($id, $limit, $startingAfter, $endingBefore));
    }

    /** @return \Generator<WebhookDelivery> */
    public function listDeliveries(string $id, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listDeliveriesPage($id, $limit, $after));
    }
}
