<?php
declare(strict_types=1);

namespace Plinth;

/**
 * The one error every Plinth call throws: an RFC 9457 problem from the server, or a transport failure after all
 * retries (status 0, code "connection_error"). $code is an open string: the server's list grows.
 * (The HTTP status is $status; Exception::getCode() holds it too.)
 */
class PlinthException extends \RuntimeException
{
    /**
     * @param list<array{code: ?string, param: ?string, detail: ?string}> $errors
     * @param array<string, list<string>> $headers
     */
    public function __construct(
        public readonly int $status,
        public readonly string $errorCode,
        public readonly ?string $param = null,
        public readonly array $errors = [],
        public readonly ?string $requestId = null,
        public readonly ?string $type = null,
        public readonly ?string $title = null,
        public readonly ?string $detail = null,
        public readonly array $headers = [],
        public readonly ?string $rawBody = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct(
            $status . ' ' . $errorCode . ($detail !== null ? ': ' . $detail : '') . ($requestId !== null ? " [$requestId]" : ''),
            $status,
            $previous,
        );
    }

    /** From the generated ApiException (status, headers, body). */
    public static function fromApiException(\Plinth\Generated\ApiException $e): self
    {
        if ($e->getCode() === 0 || $e->getResponseHeaders() === null) {
            return new self(0, 'connection_error', title: 'Connection error', detail: $e->getMessage(), previous: $e);
        }
        $body = $e->getResponseBody();
        return self::fromResponse($e->getCode(), is_string($body) ? $body : null, $e->getResponseHeaders() ?? [], $e);
    }

    /** @param array<string, list<string>> $headers */
    public static function fromResponse(int $status, ?string $body, array $headers, ?\Throwable $previous = null): self
    {
        $headerRequestId = null;
        foreach ($headers as $name => $values) {
            if (strcasecmp((string) $name, 'Request-Id') === 0) {
                $headerRequestId = is_array($values) ? ($values[0] ?? null) : $values;
            }
        }
        $p = ($body === null || $body === '') ? null : json_decode($body, true);
        if (!is_array($p)) {
            return new self($status, 'unknown', detail: $body, requestId: $headerRequestId, headers: $headers, rawBody: $body, previous: $previous);
        }
        $str = static fn (array $a, string $k): ?string => isset($a[$k]) && is_scalar($a[$k]) ? (string) $a[$k] : null;
        $errors = [];
        foreach (is_array($p['errors'] ?? null) ? $p['errors'] : [] as $d) {
            if (is_array($d)) {
                $errors[] = ['code' => $str($d, 'code'), 'param' => $str($d, 'param'), 'detail' => $str($d, 'detail')];
            }
        }
        return new self(
            $status,
            $str($p, 'code') ?? 'unknown',
            $str($p, 'param'),
            $errors,
            $str($p, 'request_id') ?? $headerRequestId,
            $str($p, 'type'),
            $str($p, 'title'),
            $str($p, 'detail'),
            $headers,
            $body,
            $previous,
        );
    }
}
