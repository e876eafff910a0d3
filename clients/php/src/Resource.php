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
        return new $class($params);
    }
}
