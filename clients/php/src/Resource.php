<?php
declare(strict_types=1);

namespace Plinth;

/**
 * What every resource object shares: the client (its call()) and the generated API class it wraps. Request bodies
 * are arrays with the API's snake_case field names (or the generated request model); a field given as null is sent
 * as JSON null (clearing a nullable field), a field left out is not sent. POSTs take $idempotencyKey to choose the
 * key (otherwise the client makes one per call, reused by its retries).
 */
abstract class Resource
{
    public function __construct(protected readonly Client $client, public readonly object $api)
    {
    }

    /**
     * The generated request model $class from an array (refusing names it does not have, which the server would
     * refuse too), or the model itself.
     * @template T of object
     * @param class-string<T> $class
     * @return T
     */
    protected static function body(string $class, array|object $params): object
    {
        if (!is_array($params)) {
            return $params;
        }
        $unknown = array_diff(array_keys($params), array_keys($class::openAPITypes()));
        if ($unknown !== []) {
            throw new \InvalidArgumentException(sprintf(
                'unknown field(s) %s for %s; Plinth\Client::request() sends fields this client does not know yet',
                implode(', ', $unknown),
                substr(strrchr($class, '\\'), 1),
            ));
        }
        if (is_array($params['metadata'] ?? null)) {
            $params['metadata'] = (object) $params['metadata']; // a JSON object, even when empty or with digit keys
        }
        return new $class($params);
    }

    private const CREATED_BOUNDS = ['gte', 'gt', 'lte', 'lt'];

    /**
     * A list's created filter: ['gte' => '2026-11-24T00:00Z', 'lt' => new \DateTimeImmutable()], each bound a time
     * string (the API's minute form, or RFC 3339 with an offset) or a \DateTimeInterface (sent as RFC 3339 UTC, to
     * the microsecond). The generated call sends it as created[gte]=… (deepObject).
     * @param array<string, string|\DateTimeInterface>|null $created
     * @return array<string, string>|null
     */
    protected static function created(?array $created): ?array
    {
        if ($created === null) {
            return null;
        }
        $unknown = array_diff(array_keys($created), self::CREATED_BOUNDS);
        if ($unknown !== []) {
            throw new \InvalidArgumentException('created: unknown bound(s) ' . implode(', ', $unknown) . '; use gte, gt, lte, lt');
        }
        $bounds = [];
        foreach ($created as $bound => $time) {
            $bounds[$bound] = self::moment($time, "created[$bound]");
        }
        return $bounds;
    }

    /**
     * A moment as the API takes it: a string as given (the minute form '2026-11-24T09:30Z' names that minute; RFC 3339
     * with an offset, an instant), or a \DateTimeInterface, sent as RFC 3339 UTC to the microsecond.
     */
    protected static function moment(mixed $time, string $what): string
    {
        if ($time instanceof \DateTimeInterface) {
            $utc = \DateTimeImmutable::createFromInterface($time)->setTimezone(new \DateTimeZone('UTC'));
            return $utc->format('Y-m-d\\TH:i:s.u\\Z');
        }
        if (!is_string($time)) {
            $type = get_debug_type($time);
            throw new \InvalidArgumentException("$what: a time string or a \\DateTimeInterface, not $type");
        }
        return $time;
    }

    /**
     * A metadata filter, or the pairs of a change: string keys and values.
     * @param array<string, string>|null $metadata
     * @return array<string, string>|null
     */
    protected static function metadata(?array $metadata): ?array
    {
        if ($metadata === null) {
            return null;
        }
        foreach ($metadata as $key => $value) {
            if (!is_string($value)) {
                throw new \InvalidArgumentException("metadata[$key]: a string, not " . get_debug_type($value));
            }
        }
        return $metadata;
    }

    /**
     * String pairs as the API takes them, a JSON object (a key's permissions: group => level). Which keys and values
     * exist is the server's to judge (a 400 naming the field), so a group newer than this client still goes.
     * @param array<string, string>|null $pairs
     */
    protected static function pairs(?array $pairs, string $what): ?object
    {
        if ($pairs === null) {
            return null;
        }
        foreach ($pairs as $key => $value) {
            if (!is_string($key) || !is_string($value)) {
                throw new \InvalidArgumentException(
                    "$what: an array of string => string, e.g. ['accounts' => 'read'] (got $key => "
                    . get_debug_type($value) . ')',
                );
            }
        }
        return (object) $pairs;
    }

    /**
     * The metadata of an update: the pairs to set (a value '' removes its key), or '' (the API's "remove every key")
     * when $clear; one of the two.
     * @param array<string, string>|null $metadata
     */
    protected static function metadataChange(?array $metadata, bool $clear): object|string
    {
        if ($clear && $metadata !== null) {
            throw new \InvalidArgumentException('give $metadata or clearMetadata: true, not both');
        }
        if ($clear) {
            return '';
        }
        if ($metadata === null) {
            throw new \InvalidArgumentException('give $metadata (the keys to set, or remove with \'\') or clearMetadata: true');
        }
        return (object) self::metadata($metadata);
    }
}
