<?php

declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\Event;

/**
 * Events' hand-written method, beside the generated ones of Events (src/Events.php): the live stream is transport,
 * kept by hand (EventStream).
 */
trait EventsMethods
{
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
}
