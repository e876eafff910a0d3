<?php
declare(strict_types=1);

namespace Plinth;

use Plinth\Generated\Model\RequestLog;
use Plinth\Generated\Model\RequestLogList;

/**
 * The request log (GET /v1/requests): every authenticated request of this key's organisation and mode, newest first.
 * An entry is written a few hundred milliseconds after its answer (the server writes the log in batches).
 */
final class Requests extends Resource
{
    /**
     * One page, newest first. Filters: $status (of the answer, e.g. 409), $method (GET, HEAD, POST or DELETE),
     * $created (['gte' => new \DateTimeImmutable('-1 hour')], as for accounts).
     * @param array<string, string|\DateTimeInterface>|null $created
     */
    public function listPage(?int $status = null, ?string $method = null, ?array $created = null, ?int $limit = null, ?string $startingAfter = null, ?string $endingBefore = null): RequestLogList
    {
        $created = self::created($created);
        return $this->client->call(fn () => $this->api->listRequestsWithHttpInfo($limit, $startingAfter, $endingBefore, $status, $method, $created));
    }

    /**
     * Every recorded request, newest first, fetching pages of $limit lazily, the filters on each.
     * @param array<string, string|\DateTimeInterface>|null $created
     * @return \Generator<RequestLog>
     */
    public function list(?int $status = null, ?string $method = null, ?array $created = null, ?int $limit = null): \Generator
    {
        return Client::paginate(fn (?string $after) => $this->listPage($status, $method, $created, $limit, $after));
    }

    /** One request, by the Request-Id its answer carried (req_…): its route, status, source and the body it sent. */
    public function retrieve(string $id): RequestLog
    {
        return $this->client->call(fn () => $this->api->retrieveRequestWithHttpInfo($id));
    }
}
